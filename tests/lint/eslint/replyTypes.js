/**
 * The type a client call expects back is the server's: every type argument of `api.get<T>`,
 * `api.post<T>`, `api.put<T>`, `api.patch<T>`, `api.delete<T>` and `request<T>` names a type imported
 * from the wire protocol (`@scriptorium/domain/protocol/…`, inferred from the schemas the routes
 * declare), or a part of one (`T['field']`, `T[]`, `A | B`). A text reply is `string`, no body `void`.
 * A type written in the client (an interface, a literal, a local alias) is reported: it could drift
 * from what the server sends without any check noticing.
 */

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const PROTOCOL = /^@scriptorium\/domain\/protocol\//;

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'A client call’s reply type is inferred from the route’s schema in domain/src/protocol/http.' },
    messages: {
      handWritten: '{{type}} is written in the client: take the reply type from @scriptorium/domain/protocol/http/<area> (import type), inferred from the schema the route declares.',
    },
    schema: [],
  },
  create(context) {
    const imported = new Map();
    const isClientCall = (callee) =>
      (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'api' && callee.property.type === 'Identifier' && METHODS.has(callee.property.name)) ||
      (callee.type === 'Identifier' && callee.name === 'request');
    const rootName = (name) => (name.type === 'TSQualifiedName' ? rootName(name.left) : name.name);
    /** A generic helper's own type parameter is its caller's to choose (the client's `request<T>` itself). */
    const typeParameters = (node) => new Set(context.sourceCode.getAncestors(node).flatMap((ancestor) => (ancestor.typeParameters?.params ?? []).map((parameter) => parameter.name.name)));
    /** The parts of a type that are not the protocol's. */
    const foreign = (type, parameters) => {
      switch (type.type) {
        case 'TSVoidKeyword':
        case 'TSStringKeyword':
          return [];
        case 'TSTypeReference': {
          const name = rootName(type.typeName);
          return PROTOCOL.test(imported.get(name) ?? '') || parameters.has(name) ? [] : [type];
        }
        case 'TSIndexedAccessType':
          return foreign(type.objectType, parameters);
        case 'TSArrayType':
          return foreign(type.elementType, parameters);
        case 'TSUnionType':
        case 'TSIntersectionType':
          return type.types.flatMap((each) => foreign(each, parameters));
        default:
          return [type];
      }
    };
    return {
      ImportDeclaration(node) {
        for (const specifier of node.specifiers) imported.set(specifier.local.name, node.source.value);
      },
      CallExpression(node) {
        const typeArguments = node.typeArguments ?? node.typeParameters;
        if (!typeArguments || !isClientCall(node.callee)) return;
        const parameters = typeParameters(node);
        for (const type of typeArguments.params.flatMap((each) => foreign(each, parameters))) context.report({ node: type, messageId: 'handWritten', data: { type: context.sourceCode.getText(type) } });
      },
    };
  },
};
