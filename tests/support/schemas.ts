import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { z } from 'zod';

/** A route's schemas as the client sends them (JSON Schema, before defaults), the same view the OpenAPI document gives. */
type Json = Record<string, any>;
export const inputSchema = (schema: z.ZodType): Json => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;

/** Strings the patterns of this API take; a pattern not listed samples as a plain word (the route then answers 422, still not a 5xx). */
const PATTERN_SAMPLES: Array<[RegExp, string]> = [
  [/\\d\{6\}/, '123456'],
  [/A-Za-z0-9_-\]\{1,(100|64)\}/, 'sample-id'],
  [/\\p\{L\}/, 'sampler'],
];

function sampleString(schema: Json, key: string): string {
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'uri' || /url/.test(key)) return 'https://example.com/page';
  if (/email/.test(key)) return 'sample@example.com';
  if (schema.pattern) for (const [pattern, sample] of PATTERN_SAMPLES) if (pattern.test(schema.pattern)) return sample;
  const word = 'sample';
  return word.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? 1000);
}

/** The smallest value the schema accepts, by construction (required fields only, first enum member, defaults). */
export function sample(schema: Json, key = ''): unknown {
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf.find((branch: Json) => branch.type !== 'null') ?? schema.anyOf[0], key);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(((schema.required ?? []) as string[]).map((name) => [name, sample(schema.properties?.[name] ?? {}, name)]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}, key));
    case 'string':
      return sampleString(schema, key);
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'sample';
  }
}

/** Strings that have broken parsers, renderers and stores elsewhere: NUL, lone surrogates, bidi overrides, combining floods, markup, paths. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Eevil\u202C',
  '\u200B\u200D\uFEFF',
  'e\u0301'.repeat(500),
  '𝕏🏳️‍🌈👨‍👩‍👧‍👦',
  '<img src=x onerror=alert(1)>',
  '"><script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '${7*7}{{7*7}}',
  "' OR 1=1 --",
  '$where',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '1e309',
  '中'.repeat(70_000),
];

/** Values of the wrong type for any field. */
const WRONG_TYPES: unknown[] = [null, true, 0, -1, 1.5, 1e308, -9007199254740993, [], [null], {}, { $gt: '' }, 'x'];

/** Real values for fields by name (alice's session, note, cognition ids), so fuzzed requests reach past the lookup. */
export type Known = Record<string, string[]>;

function valueArbitrary(schema: Json, key: string, depth: number, known: Known): fc.Arbitrary<unknown> {
  const hostile = fc.constantFrom(...HOSTILE_STRINGS, ...WRONG_TYPES);
  const own = known[key];
  const valid = own ? fc.constantFrom(...own) : fc.constant(null).map(() => sample(schema, key));
  if (depth > 3) return fc.oneof(valid, hostile);
  if (schema.enum || 'const' in schema) return fc.oneof(valid, hostile);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((branch: Json) => valueArbitrary(branch, key, depth + 1, known)), hostile);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectArbitrary(schema, depth + 1, known);
    case 'array':
      return fc.oneof(fc.array(valueArbitrary(schema.items ?? {}, key, depth + 1, known), { maxLength: 4 }), valid, hostile, fc.constant(Array.from({ length: 1001 }, () => sample(schema.items ?? {}, key))));
    case 'string':
      return fc.oneof(valid, fc.string({ unit: 'binary', maxLength: 40 }), hostile, fc.constant('x'.repeat((schema.maxLength ?? 1000) + 1)));
    case 'integer':
    case 'number':
      return fc.oneof(valid, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), hostile);
    default:
      return fc.oneof(valid, hostile, fc.jsonValue({ maxDepth: 2 }));
  }
}

function objectArbitrary(schema: Json, depth: number, known: Known): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>);
  const required = new Set((schema.required ?? []) as string[]);
  const fields = properties.map(([name, property]) =>
    fc.tuple(fc.constant(name), fc.oneof({ weight: 3, arbitrary: valueArbitrary(property, name, depth, known) }, { weight: 1, arbitrary: fc.constant(undefined) }), fc.boolean()),
  );
  return fc.tuple(...fields).map((entries) =>
    Object.fromEntries(entries.filter(([name, value, keep]) => value !== undefined && (keep || required.has(name))).map(([name, value]) => [name, value])),
  );
}

/** Keys that pollute a prototype when a handler merges the body into an object. */
const POLLUTION = '"__proto__":{"polluted":"yes","is_admin":true},"constructor":{"prototype":{"polluted":"yes"}},';

/**
 * A raw request body for a schema: mostly near the schema (each field valid, hostile or of the wrong
 * type), sometimes with prototype-pollution keys spliced in, sometimes not JSON at all, or not an object.
 */
export function bodyArbitrary(schema: Json | undefined, known: Known = {}): fc.Arbitrary<string> {
  const shaped = schema ? valueArbitrary(schema, '', 0, known) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    { weight: 6, arbitrary: shaped.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 2, arbitrary: shaped.map((value) => (value && typeof value === 'object' && !Array.isArray(value) ? `{${POLLUTION}${JSON.stringify(value).slice(1)}`.replace(/,}$/, '}') : JSON.stringify(value) ?? 'null')) },
    { weight: 1, arbitrary: fc.constantFrom('{"a":', '{"a":1}}', '\u0000', '[]'.repeat(1), '{"x":"\\ud800"}', `[${'['.repeat(5000)}${']'.repeat(5000)}]`, '"' + 'a'.repeat(1_100_000) + '"') },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  );
}

/** A query string for a schema: its fields with hostile or wrong values, repeated keys (arrays), and pollution keys. */
export function queryArbitrary(schema: Json | undefined, known: Known = {}): fc.Arbitrary<string> {
  const names = Object.keys(schema?.properties ?? {});
  const real = Object.values(known).flat();
  const value = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS.filter((text) => text.length < 1000), '0', '-1', '1e9', '9'.repeat(400), 'true', ...real), fc.string({ maxLength: 20 }));
  const name = fc.oneof({ weight: 4, arbitrary: names.length > 0 ? fc.constantFrom(...names) : fc.constant('q') }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor[prototype][polluted]', '__proto__[polluted]', 'a[b][c]') });
  // A lone surrogate has no UTF-8 form: it goes as the bytes of an encoded surrogate, which no decoder accepts; so do bare and broken escapes.
  const encode = (text: string) => {
    try {
      return encodeURIComponent(text);
    } catch {
      return '%ED%A0%80';
    }
  };
  const pair = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(name, value).map(([key, text]) => `${encode(key)}=${encode(String(text))}`) },
    { weight: 1, arbitrary: fc.tuple(name, fc.constantFrom('%', '%zz', '%FF', '%C0%AF', '%00')).map(([key, text]) => `${encode(key)}=${text}`) },
  );
  return fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.join('&'));
}

/** The prototype of every object in this process is clean (the server under test runs here too). */
export const prototypeClean = () => !('polluted' in Object.prototype) && !('is_admin' in Object.prototype);
