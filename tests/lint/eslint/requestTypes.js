/**
 * What a client call sends is typed by the schemas the server parses it with: a call of the HTTP
 * client (`api.*`, `request`) whose options carry `json` names the body's type, and one whose options
 * carry `query` names the query's, each imported from the wire protocol (`api.post<NoteDetail,
 * NoteCreate>(…, { json })`, `api.get<CognitionPage, CognitionListQuery>(…, { query })`: the request
 * and query schemas' `z.input`). Without it the body or query is whatever the call builds and a field
 * the server renamed, or a parameter it never knew, goes unnoticed; with it tsc checks what is sent
 * against the schema. A type written in the client is reported as a missing one would be.
 */
import { clientCallRule } from './protocolTypes.js';

const SENT = [
  ['json', 'body', 'untypedBody'],
  ['query', 'query', 'untypedQuery'],
];

/** @type {import('eslint').Rule.RuleModule} */
export default clientCallRule({
  description: 'A client call’s JSON body and query are typed by the route’s schemas in domain/src/protocol/http.',
  messages: {
    untypedBody: 'This JSON body has no type from the protocol: name it as the call’s body type argument (api.post<Reply, Body>), imported (import type) from @scriptorium/domain/protocol/http/<area>, the z.input of the schema the route parses it with.',
    untypedQuery: 'This query has no type from the protocol: name it as the call’s query type argument (api.get<Reply, Query>), imported (import type) from @scriptorium/domain/protocol/http/<area>, the z.input of the schema the route parses it with.',
    handWritten: '{{type}} is written in the client: take the type from @scriptorium/domain/protocol/http/<area> (import type), the z.input of the schema the route parses it with.',
  },
  check({ typeAt, options, reportForeign, report }) {
    if (options?.type !== 'ObjectExpression') return;
    for (const [option, slot, untyped] of SENT) {
      const given = options.properties.find((property) => property.type === 'Property' && !property.computed && (property.key.name ?? property.key.value) === option);
      if (!given) continue;
      const type = typeAt(slot);
      if (type) reportForeign(type);
      else report(given, untyped);
    }
  },
});
