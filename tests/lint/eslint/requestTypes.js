/**
 * The body a client call sends is typed by the schema the server parses it with: a call of the HTTP
 * client (`api.post`, `api.put`, `api.patch`, `request`) whose options carry `json` names the body's
 * type as its second type argument, imported from the wire protocol (`api.post<NoteDetail,
 * NoteCreate>(…, { json })`, the request schema's `z.input`). Without it the body is whatever the
 * call builds and a field the server renamed goes unnoticed; with it tsc checks the body against
 * the schema. A body type written in the client is reported as a missing one would be.
 */
import { clientCallRule } from './protocolTypes.js';

/** @type {import('eslint').Rule.RuleModule} */
export default clientCallRule({
  description: 'A client call’s JSON body is typed by the route’s request schema in domain/src/protocol/http.',
  messages: {
    untyped: 'This JSON body has no type from the protocol: name it as the call’s body type argument (api.post<Reply, Body>), imported (import type) from @scriptorium/domain/protocol/http/<area>, the z.input of the schema the route parses it with.',
    handWritten: '{{type}} is written in the client: take the body type from @scriptorium/domain/protocol/http/<area> (import type), the z.input of the schema the route parses it with.',
  },
  check(call, { report, reportForeign }) {
    const options = call.arguments[call.callee.type === 'Identifier' ? 2 : 1];
    const json = options?.type === 'ObjectExpression' && options.properties.find((property) => property.type === 'Property' && !property.computed && (property.key.name ?? property.key.value) === 'json');
    if (!json) return;
    const body = (call.typeArguments ?? call.typeParameters)?.params[1];
    if (body) reportForeign(body);
    else report(json, 'untyped');
  },
});
