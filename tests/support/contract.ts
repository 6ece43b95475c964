import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Every answer an HTTP suite receives, checked against the OpenAPI document the server under test
 * serves: the status must be one the operation declares, and a JSON body must match that status's
 * schema (closed objects: a field the schema does not name is drift too). A mismatch throws, so the
 * request, and the test, fails. Paths the document does not describe (static files, /healthz) pass.
 */
type Json = Record<string, any>;

interface Operation {
  pattern: RegExp;
  /** Path parameters: the fewer, the more literal, and the likelier the router's own choice. */
  params: number;
  pointer: string;
  responses: Json;
}

export interface Conformance {
  /** Throws when the answer is not what the document says this operation answers. */
  check(method: string, url: string, answer: { status: number; contentType: string; text: string; body: unknown }): void;
}

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export function conformance(document: Json): Conformance {
  // Formats are not checked: zod writes a pattern beside each format it emits, and the pattern is.
  // A shared component (the stream items) is compiled once and called, not copied into every operation's validator.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, inlineRefs: false });
  ajv.addSchema(document, 'openapi');
  const operations = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(item)) {
      const list = operations.get(method) ?? [];
      list.push({ pattern, params: (path.match(/\{/g) ?? []).length, pointer: `#/paths/${escape(path)}/${method}`, responses: operation.responses });
      operations.set(method, list);
    }
  }
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `openapi${pointer}` })));
    return validate;
  };
  const resolve = (response: Json): { response: Json; pointer?: string } => {
    if (!response.$ref) return { response };
    const name = (response.$ref as string).split('/').pop()!;
    return { response: document.components.responses[name], pointer: `#/components/responses/${escape(name)}` };
  };

  return {
    check(method, url, answer) {
      const path = new URL(url).pathname;
      const candidates = (operations.get(method.toLowerCase()) ?? []).filter((operation) => operation.pattern.test(path));
      if (candidates.length === 0) return;
      const operation = candidates.sort((a, b) => a.params - b.params)[0]!;
      const where = `${method.toUpperCase()} ${path}`;
      const declared = operation.responses[String(answer.status)];
      if (!declared) throw new Error(`${where} answered ${answer.status}, which the OpenAPI document does not declare for it (declared: ${Object.keys(operation.responses).join(', ')}); body: ${answer.text.slice(0, 300)}`);
      if (method.toUpperCase() === 'HEAD') return;
      const { response, pointer } = resolve(declared);
      const base = pointer ?? `${operation.pointer}/responses/${answer.status}`;
      const content = (response.content ?? {}) as Json;
      if (Object.keys(content).length === 0) {
        if (answer.text !== '') throw new Error(`${where} answered ${answer.status} with a body, where the document declares none: ${answer.text.slice(0, 300)}`);
        return;
      }
      const mediaType = answer.contentType.split(';')[0]!.trim().toLowerCase();
      const declaredType = Object.keys(content).find((type) => type === mediaType) ?? (content['application/octet-stream'] ? 'application/octet-stream' : undefined);
      if (!declaredType) throw new Error(`${where} answered ${answer.status} as ${mediaType || 'no media type'}, where the document declares ${Object.keys(content).join(', ')}`);
      const refused = (validate: ValidateFunction, value: unknown, what: string) => {
        if (validate(value)) return;
        const errors = (validate.errors ?? []).slice(0, 8).map((error) => `${error.instancePath || '(body)'} ${error.message}${error.params && 'additionalProperty' in error.params ? ` '${error.params.additionalProperty}'` : ''}`);
        throw new Error(`${where} answered ${answer.status} with ${what} its schema refuses:\n  ${errors.join('\n  ')}\n${what}: ${JSON.stringify(value).slice(0, 500)}`);
      };
      if (declaredType === 'application/json') return refused(validatorAt(`${base}/content/application~1json/schema`), answer.body, 'a body');
      // An event stream declares each event's schema: every `data:` line but the closing [DONE] must match it.
      if (declaredType === 'text/event-stream' && content[declaredType].schema?.contentSchema) {
        const validate = validatorAt(`${base}/content/text~1event-stream/schema/contentSchema`);
        for (const [, data] of answer.text.matchAll(/^data: (.*)$/gm)) if (data !== '[DONE]') refused(validate, JSON.parse(data!), 'an event');
      }
    },
  };
}

/** The document of each server a suite talks to, read once. */
const documents = new Map<string, Promise<Conformance>>();

/** The conformance of the server at `baseUrl`, from the document it serves, read once. */
export function conformanceOf(baseUrl: string): Promise<Conformance> {
  let found = documents.get(baseUrl);
  if (!found) {
    found = fetch(`${baseUrl}/backend/openapi.json`).then(async (response) => {
      if (!response.ok) throw new Error(`${baseUrl}/backend/openapi.json: ${response.status}`);
      return conformance((await response.json()) as Json);
    });
    // A failed read is not kept: the next request tries again.
    found.catch(() => documents.delete(baseUrl));
    documents.set(baseUrl, found);
  }
  return found;
}
