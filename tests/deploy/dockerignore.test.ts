/**
 * What `COPY . .` may bake into the image: the build context less `.dockerignore`, read as Docker
 * reads it (each pattern matched against the whole path from the context's root, `*` within one
 * segment, `**` across any number; a directory that matches takes everything under it). No pattern
 * here is a negation, so a path is out as soon as it or a directory above it matches.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';

const lines = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

const patternOf = (line: string) =>
  new RegExp(
    `^${line
      .replace(/^\/+|\/+$/g, '')
      .split(/(\*\*\/?|\*|\?)/)
      .map((part) => (part.startsWith('**') ? '(?:.*/)?' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  );
const patterns = lines.map(patternOf);

const ignored = (path: string) => {
  const segments = path.split('/');
  return segments.some((_, end) => patterns.some((pattern) => pattern.test(segments.slice(0, end + 1).join('/'))));
};

test('the build context leaves out data (with jwt-secret), history, dependencies, build and test output and local settings', (t) => {
  t.false(lines.some((line) => line.startsWith('!')), 'no negations, which the reading above does not follow');
  for (const path of [
    'data/jwt-secret',
    'data/uploads/u1/report.pdf',
    'backend/data/jwt-secret',
    '.git/HEAD',
    '.git/objects/ab/cdef',
    'node_modules/koa/package.json',
    'frontend/node_modules/vite/package.json',
    'frontend/dist/index.html',
    'dist/main.js',
    '.tmp/build-1/main.js',
    'tests/e2e/screenshots/research.png',
    'api.log',
    'backend/debug.log',
    '.env',
    '.env.production',
  ]) {
    t.true(ignored(path), path);
  }
});

test('what the image builds from stays in the context', (t) => {
  for (const path of ['package.json', 'package-lock.json', 'tsconfig.base.json', 'backend/src/main.ts', 'infra/deploy/build.ts', 'frontend/index.html', 'frontend/src/main.tsx', 'domain/src/protocol/ws.ts', 'docs/operations.md']) {
    t.false(ignored(path), path);
  }
});
