/**
 * What the client's contract rules share (`reply-type-from-protocol`, `request-type-from-protocol`):
 * which calls are the HTTP client's, and which parts of a type argument are not the wire protocol's
 * (`@scriptorium/domain/protocol/…`, inferred from the schemas the routes declare). A part of a
 * protocol type (`T['field']`, `T[]`, `A | B`) is the protocol's; `string` (a text reply) and `void`
 * (no body) pass; so does a type parameter of the generic helper the call sits in, its caller's to choose.
 */

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const PROTOCOL = /^@scriptorium\/domain\/protocol\//;

/** `api.get(…)` and its siblings, or `request(…)` itself. */
const isClientCall = (callee) =>
  (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'api' && callee.property.type === 'Identifier' && METHODS.has(callee.property.name)) ||
  (callee.type === 'Identifier' && callee.name === 'request');

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
 * A rule on the HTTP client's calls: `check(call, report)` sees each call of `api.*` or `request`,
 * and `report(type)` reports every part of a type argument that is not the protocol's with
 * `messages.handWritten`.
 */
export function clientCallRule({ description, messages, check }) {
  return {
    meta: { type: 'problem', docs: { description }, messages, schema: [] },
    create(context) {
      const types = protocolTypes(context);
      return {
        ImportDeclaration: types.imports,
        CallExpression(node) {
          if (!isClientCall(node.callee)) return;
          const reportForeign = (type) => {
            for (const part of types.foreign(type, node)) context.report({ node: part, messageId: 'handWritten', data: { type: context.sourceCode.getText(part) } });
          };
          check(node, { reportForeign, report: (at, messageId) => context.report({ node: at, messageId }) });
        },
      };
    },
  };
}
