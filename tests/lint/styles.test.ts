/**
 * The client's styles: colours come only from the design tokens, the global folder holds only the
 * tokens and the base (reset and shared primitives), every feature's stylesheet is imported by the
 * feature, and no selector is defined in two files (which of two equal rules wins would depend on
 * which lazy chunk loaded last).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';

const root = new URL('../../frontend/src/', import.meta.url).pathname;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const all = [...files(root)].map((path) => relative(root, path));
const css = all.filter((path) => path.endsWith('.css'));
const code = all.filter((path) => /\.tsx?$/.test(path) && !path.endsWith('.test.ts'));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '');

test('no raw hex colour outside the tokens file', (t) => {
  const hex = /(?<![&\w])#[0-9a-fA-F]{3,8}\b/g;
  const found = [...css, ...code]
    .filter((path) => path !== 'styles/tokens.css')
    .flatMap((path) => [...withoutComments(read(path)).matchAll(hex)].map((match) => `${path}: ${match[0]}`));
  t.deepEqual(found, []);
});

test('the global styles are only the tokens and the base', (t) => {
  t.deepEqual(css.filter((path) => path.startsWith('styles/')).sort(), ['styles/base.css', 'styles/tokens.css']);
  const main = read('main.tsx');
  t.deepEqual([...main.matchAll(/import '(\.[^']+\.css)'/g)].map((match) => match[1]), ['./styles/tokens.css', './styles/base.css']);
});

test('every stylesheet is imported by the code that uses it', (t) => {
  const imported = new Set(
    code.flatMap((path) =>
      [...read(path).matchAll(/import '(\.{1,2}\/[^']+\.css)'/g)].map((match) => relative(root, join(root, path, '..', match[1]!))),
    ),
  );
  t.deepEqual(css.filter((path) => !imported.has(path)), []);
});

test('no selector is defined in two stylesheets', (t) => {
  const owners = new Map<string, string[]>();
  for (const path of css) {
    const text = withoutComments(read(path)).replace(/@keyframes[^{]+\{(?:[^{}]*\{[^}]*\})*\s*\}/g, '');
    for (const [, selectors] of text.matchAll(/([^{}@;]+)\{/g)) {
      for (const selector of selectors!.split(',').map((part) => part.trim().replace(/\s+/g, ' '))) {
        if (selector === '' || /^(from|to|\d+%)$/.test(selector) || !selector.startsWith('.')) continue;
        owners.set(selector, [...new Set([...(owners.get(selector) ?? []), path])]);
      }
    }
  }
  t.deepEqual([...owners].filter(([, paths]) => paths.length > 1), []);
});
