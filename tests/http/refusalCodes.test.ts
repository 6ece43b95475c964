import test from 'ava';
import type { z } from 'zod';
import { createApi } from '@scriptorium/backend/http/server';
import { routesOf } from '@scriptorium/backend/http/openapi';
import { ERROR_TEXTS, isErrorCode } from '@scriptorium/domain/protocol/errors';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

type Schema = z.core.$ZodType;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && '_zod' in value;

/** The issue a schema-level error is asked about: any that reads the input sees nothing. */
const ISSUE = { code: 'invalid_type', expected: 'string', input: undefined, path: [] };

/** What a schema or check words itself as, and which params its issue can fill in. */
interface Worded {
  message: string;
  bounds: string[];
}

const wording = (error: unknown, bounds: string[]): Worded[] => {
  if (typeof error !== 'function') return [];
  const said = (error as (issue: unknown) => unknown)(ISSUE);
  const message = typeof said === 'object' && said !== null ? (said as { message?: unknown }).message : said;
  return typeof message === 'string' ? [{ message, bounds }] : [];
};

const CHECK_BOUNDS: Record<string, string[]> = { min_length: ['min'], greater_than: ['min'], max_length: ['max'], less_than: ['max'] };

/** Every message a schema tree gives itself, whatever wraps it (objects, pipes, unions, defaults…). */
function messagesOf(root: Schema): Worded[] {
  const seen = new Set<Schema>();
  const found: Worded[] = [];
  const visit = (schema: Schema) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    const def = schema._zod.def as unknown as Record<string, unknown> & { type: string; checks?: Schema[] };
    found.push(...wording(def.error, def.type === 'enum' ? ['values'] : []));
    for (const check of def.checks ?? []) {
      const checkDef = check._zod.def as unknown as { check: string; error?: unknown };
      found.push(...wording(checkDef.error, CHECK_BOUNDS[checkDef.check] ?? []));
    }
    // Checks look like schemas (they carry `_zod`) but were read above, with their bounds.
    for (const [key, value] of Object.entries(def)) {
      if (key === 'checks') continue;
      const children = isSchema(value) ? [value] : Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : [];
      for (const child of children) if (isSchema(child)) visit(child);
    }
  };
  visit(root);
  return found;
}

test('every message a route schema words itself is a catalogue code whose placeholders its issue fills', async (t) => {
  const api = await createApi(app.services, app.runner);
  try {
    let worded = 0;
    for (const { method, path, declared } of routesOf(api.router)) {
      for (const schema of [declared?.params, declared?.query, declared?.body, declared?.multipart]) {
        if (!schema) continue;
        for (const { message, bounds } of messagesOf(schema)) {
          worded += 1;
          const where = `${method.toUpperCase()} ${path}: ${message}`;
          if (!isErrorCode(message)) {
            t.fail(`${where} is not a catalogue code`);
            continue;
          }
          const placeholders = [...ERROR_TEXTS[message].zh.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
          t.deepEqual(placeholders.filter((name) => !bounds.includes(name!)), [], `${where} names what its issue cannot fill`);
        }
      }
    }
    t.true(worded > 100);
  } finally {
    await api.close();
  }
});
