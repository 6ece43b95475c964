import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds docs/events.md from the code: every `DomainEvent<'Type', {…}>` declared under
 * domain/src, with its data shape. `npm run docs:events` rewrites the file; the test
 * beside this fails when the file and the code disagree.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOMAIN = join(ROOT, 'domain/src');
export const CATALOGUE = join(ROOT, 'docs/events.md');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The text of the data type: from after the type name to its matching closing brace. */
function dataShape(source: string, from: number): string {
  let depth = 0;
  for (let index = from; index < source.length; index++) {
    const char = source[index];
    if (char === '{' || char === '<') depth++;
    if (char === '}' || char === '>') {
      if (depth === 0) return source.slice(from, index).trim();
      depth--;
    }
  }
  return source.slice(from).trim();
}

export function renderCatalogue(): string {
  const sections: string[] = [];
  for (const file of files(DOMAIN).sort()) {
    const source = readFileSync(file, 'utf8');
    const rows: string[] = [];
    for (const match of source.matchAll(/DomainEvent<\s*'([A-Za-z]+)',\s*/g)) {
      const shape = dataShape(source, match.index! + match[0].length).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').replace(/\|/g, '\\|');
      rows.push(`| \`${match[1]}\` | \`${shape}\` |`);
    }
    if (rows.length === 0) continue;
    sections.push(`## ${relative(ROOT, file)}\n\n| event | data |\n|---|---|\n${rows.join('\n')}\n`);
  }
  return [
    '# Event catalogue',
    '',
    'Generated from the code by `npm run docs:events`; `tests/docs/events.test.ts` fails when it is out of date.',
    'Every event also carries metadata: `at`, `correlationId`, `causationId`, `userId`, `clientId` where known.',
    '',
    ...sections,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CATALOGUE, renderCatalogue());
  process.stdout.write(`wrote ${relative(ROOT, CATALOGUE)}\n`);
}
