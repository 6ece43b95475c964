/**
 * No hand-kept busy state where a query or mutation owns it (frontend/CONTEXT.md): a write is a
 * `useApiMutation`, whose `isPending` and `error` are the query client's, a read a `useApiQuery`.
 * Reported: a `useState` whose setter is called in a `finally` (a try's or a promise's: the flag put
 * back once the call settles), and a `useState` named as a busy flag (`busy`, `loading`, `saving`,
 * `submitting`, `sending`, `uploading`, `exporting`…).
 */

const BUSY_NAME = /^(is)?(busy|loading|saving|submitting|sending|uploading|exporting|fetching)$/i;

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Busy state belongs to the query or mutation that does the work (useApiMutation, useApiQuery).' },
    messages: {
      settled: '{{name}} is put back when a call settles: let useApiMutation (isPending, error) or useApiQuery keep it.',
      named: '{{name}} is a hand-kept busy flag: let useApiMutation (isPending) or useApiQuery (isLoading) keep it.',
    },
    schema: [],
  },
  create(context) {
    const setters = new Map();
    const isUseState = (call) =>
      call?.type === 'CallExpression' && ((call.callee.type === 'Identifier' && call.callee.name === 'useState') || (call.callee.type === 'MemberExpression' && call.callee.property.name === 'useState'));
    const inFinally = (node) => {
      for (let child = node, at = node.parent; at; child = at, at = at.parent) {
        if (at.type === 'TryStatement' && at.finalizer === child) return true;
        if (at.type === 'CallExpression' && at.arguments.includes(child) && at.callee.type === 'MemberExpression' && at.callee.property.name === 'finally') return true;
      }
      return false;
    };
    return {
      VariableDeclarator(node) {
        if (node.id.type !== 'ArrayPattern' || !isUseState(node.init)) return;
        const [value, setter] = node.id.elements;
        if (setter?.type === 'Identifier') setters.set(setter.name, node);
        if (value?.type === 'Identifier' && BUSY_NAME.test(value.name)) context.report({ node: value, messageId: 'named', data: { name: value.name } });
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && setters.has(node.callee.name) && inFinally(node)) context.report({ node, messageId: 'settled', data: { name: node.callee.name } });
      },
    };
  },
};
