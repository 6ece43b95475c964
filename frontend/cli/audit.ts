/**
 * `npm run audit -- <stream> [--at position] [--jsonl] [--lang zh|en]`: the audit page's twin for a
 * terminal. It reads the audit API as the signed-in CLI user (the command-line assistant's saved
 * sign-in, or SCRIPTORIUM_SERVER + SCRIPTORIUM_TOKEN) and folds the stream with the page's own
 * replay code, so the view it prints at a position is the one the page shows there.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AuditEvent, AuditEvents } from '@scriptorium/domain/protocol/http/audit';
import { Replay, viewMarkdown, type MarkdownLabels } from '../src/audit/replay.ts';
import { accountEn } from '../src/i18n/account.en.ts';
import { accountZh } from '../src/i18n/account.zh.ts';

const USAGE = 'usage: npm run audit -- <stream> [--at position] [--jsonl] [--lang zh|en]';

class Failure extends Error {}

function signIn(): { server: string; token: string } {
  const { SCRIPTORIUM_SERVER: server, SCRIPTORIUM_TOKEN: token } = process.env;
  if (server && token) return { server, token };
  const path = process.env.SCRIPTORIUM_CONFIG ?? join(homedir(), '.scriptorium', 'config.json');
  try {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { server?: unknown; token?: unknown };
    if (typeof saved.server === 'string' && typeof saved.token === 'string') return { server: server ?? saved.server, token: token ?? saved.token };
  } catch {
    // No saved sign-in: say how to get one below.
  }
  throw new Failure('not signed in: run `npm run cli -- login`, or set SCRIPTORIUM_SERVER and SCRIPTORIUM_TOKEN');
}

function labelsFor(lang: 'zh' | 'en'): MarkdownLabels {
  const { audit } = lang === 'en' ? accountEn : accountZh;
  return { ...audit.markdown, chat: audit.view.chat, plan: audit.view.plan, canvas: audit.view.canvas, noCanvas: audit.view.noCanvas, status: audit.status };
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { at: { type: 'string' }, jsonl: { type: 'boolean', default: false }, lang: { type: 'string', default: 'zh' } },
  });
  const [stream, ...extra] = positionals;
  if (!stream || extra.length > 0) throw new Failure(USAGE);
  if (values.lang !== 'zh' && values.lang !== 'en') throw new Failure(`--lang must be zh or en\n${USAGE}`);
  const at = values.at === undefined ? undefined : Number(values.at);
  if (at !== undefined && !(Number.isInteger(at) && at >= 0)) throw new Failure(`--at must be a whole number of at least 0\n${USAGE}`);
  const lang = values.lang;
  const { server, token } = signIn();

  const get = async (path: string): Promise<Response> => {
    const response = await fetch(new URL(`/backend/audit/streams/${encodeURIComponent(stream)}${path}`, server), {
      headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { detail?: unknown; code?: unknown };
      throw new Failure(`${typeof body.detail === 'string' ? body.detail : `HTTP ${response.status}`}${typeof body.code === 'string' ? ` (${body.code})` : ''}`);
    }
    return response;
  };

  if (values.jsonl) {
    process.stdout.write(await (await get('/export.jsonl')).text());
    return;
  }

  const replay = new Replay(stream);
  let last: AuditEvent | undefined;
  for (let from: number | null = 0; from !== null; ) {
    const page = (await (await get(`/events?from=${from}`)).json()) as AuditEvents;
    const rows = at === undefined ? page.events : page.events.filter((row) => row.position <= at);
    replay.append(rows);
    last = rows.at(-1) ?? last;
    if (at === undefined) for (const row of rows) process.stdout.write(`${[row.position, row.revision, row.at, row.type, row.actor ?? '-', row.size].join('\t')}\n`);
    from = rows.length < page.events.length ? null : page.next;
  }
  if (at !== undefined) process.stdout.write(viewMarkdown(replay.viewAt(replay.rows.length), stream, last, labelsFor(lang)));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`audit: ${error instanceof Failure ? error.message : error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
