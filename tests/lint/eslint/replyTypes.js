/**
 * The type a client call expects back is the server's: every type argument of `api.get<T>`,
 * `api.post<T>`, `api.put<T>`, `api.patch<T>`, `api.delete<T>` and `request<T>` names a type imported
 * from the wire protocol (see protocolTypes.js for what passes). A type written in the client (an
 * interface, a literal, a local alias) is reported: it could drift from what the server sends
 * without any check noticing. The body's and the query's types are `request-type-from-protocol`'s.
 */
import { clientCallRule } from './protocolTypes.js';

/** @type {import('eslint').Rule.RuleModule} */
export default clientCallRule({
  description: 'A client call’s reply type is inferred from the route’s schema in domain/src/protocol/http.',
  messages: {
    handWritten: '{{type}} is written in the client: take the reply type from @scriptorium/domain/protocol/http/<area> (import type), inferred from the schema the route declares.',
  },
  check({ typeAt, reportForeign }) {
    const reply = typeAt('reply');
    if (reply) reportForeign(reply);
  },
});
