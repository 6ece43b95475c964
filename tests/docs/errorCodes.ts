import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_TEXTS } from '@scriptorium/domain/protocol/errors';

/**
 * Rewrites the code table of docs/protocol.md from the kernel's error catalogue: `npm run docs:errors`
 * writes it, and the test beside this fails when the page and the catalogue disagree.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PROTOCOL = fileURLToPath(new URL('../../docs/protocol.md', import.meta.url));
const HEADER = '| code | zh (wire `detail`) | en |';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderCodeTable(): string {
  const rows = Object.entries(ERROR_TEXTS).map(([code, { zh, en }]) => `| \`${code}\` | ${cell(zh)} | ${cell(en)} |`);
  return [HEADER, '|---|---|---|', ...rows].join('\n');
}

/** The page with its table replaced; the table runs from its header to the first line that is not a row. */
export function withCodeTable(page: string): string {
  const start = page.indexOf(HEADER);
  if (start < 0) throw new Error(`${relative(ROOT, PROTOCOL)} has no table headed ${HEADER}`);
  const lines = page.slice(start).split('\n');
  const length = lines.findIndex((line) => !line.startsWith('|'));
  const rest = length < 0 ? '\n' : `\n${lines.slice(length).join('\n')}`;
  return page.slice(0, start) + renderCodeTable() + rest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(PROTOCOL, withCodeTable(readFileSync(PROTOCOL, 'utf8')));
  process.stdout.write(`wrote the code table of ${relative(ROOT, PROTOCOL)}\n`);
}
