/**
 * What the client's contract rules share (`reply-type-from-protocol`, `request-type-from-protocol`):
 * which calls are the HTTP client's, and which parts of a type argument are not the wire protocol's
 * (`@scriptorium/domain/protocol/…`, inferred from the schemas the routes declare). A part of a
 * protocol type (`T['field']`, `T[]`, `A | B`) is the protocol's; `string` (a text reply) and `void`
 * (no body) pass; so does a type parameter of the generic helper the call sits in, its caller's to choose.
 */

/**
 * Where each call of the HTTP client names its types, by type argument: the reply, the JSON body, the
 * query. A file download has no reply type (its reply is the bytes).
 */
const SLOTS = {
  get: { reply: 0, query: 1 },
  delete: { reply: 0, query: 1 },
  post: { reply: 0, body: 1, query: 2 },
  put: { reply: 0, body: 1, query: 2 },
  patch: { reply: 0, body: 1, query: 2 },
  getFile: { query: 0 },
  postFile: { body: 0, query: 1 },
};
const PROTOCOL = /^@scriptorium\/domain\/protocol\//;

/** The slots of `api.get(…)` and its siblings, or of `request(…)` itself; undefined for any other call. */
const slotsOf = (callee) => {
  if (callee.type === 'Identifier' && callee.name === 'request') return SLOTS.post;
  if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'api' && callee.property.type === 'Identifier') return Object.hasOwn(SLOTS, callee.property.name) ? SLOTS[callee.property.name] : undefined;
  return undefined;
};

/** The import listener and the foreign-part check a rule built on the protocol's types needs. */
function protocolTypes(context) {
  const imported = new Map();
  const rootName = (name) => (name.type === 'TSQualifiedName' ? rootName(name.left) : name.name);
  const typeParameters = (node) => new Set(context.sourceCode.getAncestors(node).flatMap((ancestor) => (ancestor.typeParameters?.params ?? []).map((parameter) => parameter.name.name)));
  const foreignIn = (type, parameters) => {
    switch (type.type) {
      case 'TSVoidKeyword':
      case 'TSStringKeyword':
        return [];
      case 'TSTypeReference': {
        const name = rootName(type.typeName);
        return PROTOCOL.test(imported.get(name) ?? '') || parameters.has(name) ? [] : [type];
      }
      case 'TSIndexedAccessType':
        return foreignIn(type.objectType, parameters);
      case 'TSArrayType':
        return foreignIn(type.elementType, parameters);
      case 'TSUnionType':
      case 'TSIntersectionType':
        return type.types.flatMap((each) => foreignIn(each, parameters));
      default:
        return [type];
    }
  };
  return {
    imports(node) {
      for (const specifier of node.specifiers) imported.set(specifier.local.name, node.source.value);
    },
    /** The parts of `type`, a type argument of `call`, that were written in the client. */
    foreign: (type, call) => foreignIn(type, typeParameters(call)),
  };
}

/**
 * A rule on the HTTP client's calls: `check(call, helpers)` sees each call of `api.*` or `request`;
 * `helpers.typeAt(slot)` is the type argument in that slot (`reply`, `body`, `query`), `options` the
 * call's options object, and `reportForeign(type)` reports every part of a type that is not the
 * protocol's with `messages.handWritten`.
 */
export function clientCallRule({ description, messages, check }) {
  return {
    meta: { type: 'problem', docs: { description }, messages, schema: [] },
    create(context) {
      const types = protocolTypes(context);
      return {
        ImportDeclaration: types.imports,
        CallExpression(node) {
          const slots = slotsOf(node.callee);
          if (!slots) return;
          const typeArguments = (node.typeArguments ?? node.typeParameters)?.params ?? [];
          const typeAt = (slot) => (slots[slot] === undefined ? undefined : typeArguments[slots[slot]]);
          // The path is the first argument of `api.*` and the second of `request(method, path, options)`.
          const options = node.arguments[node.callee.type === 'Identifier' ? 2 : 1];
          const reportForeign = (type) => {
            for (const part of types.foreign(type, node)) context.report({ node: part, messageId: 'handWritten', data: { type: context.sourceCode.getText(part) } });
          };
          check({ typeAt, options, reportForeign, report: (at, messageId) => context.report({ node: at, messageId }) });
        },
      };
    },
  };
}
