import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import userFacingText from './tests/lint/eslint/userFacingText.js';
import handKeptBusy from './tests/lint/eslint/handKeptBusy.js';
import styleTokens from './tests/lint/eslint/styleTokens.js';
import replyTypes from './tests/lint/eslint/replyTypes.js';
import requestTypes from './tests/lint/eslint/requestTypes.js';

/** The house rules ESLint has no rule for. */
const scriptorium = { rules: { 'user-facing-text': userFacingText, 'no-hand-kept-busy': handKeptBusy, 'style-tokens': styleTokens, 'reply-type-from-protocol': replyTypes, 'request-type-from-protocol': requestTypes } };

export default tseslint.config(
  // .tmp holds the deploy test's server build, which it writes while lint may be running (npm test runs both at once).
  { ignores: ['**/node_modules/**', 'frontend/dist/**', 'data/**', 'tests/e2e/screenshots/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='window'][callee.property.name=/^(confirm|alert)$/]", message: 'Use the ConfirmDialog or a toast, not a blocking browser dialog.' },
      ],
    },
  },
  {
    // Tests read untyped JSON answers and reach into fixtures; the types there would only restate the assertions.
    files: ['tests/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A process a test starts must die with the test's process whatever its outcome: children.ts kills what it owns.
    files: ['tests/**/*.ts', '**/*.test.ts'],
    // Not the benchmarks and the lab (run by hand), nor the suite's runner, which hands signals on to AVA and waits for it.
    ignores: ['tests/bench/**', 'tests/lab/**', 'tests/support/suite.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name=/^(spawn|fork|exec|execFile)$/]:not(CallExpression[callee.name='owned'] > CallExpression)",
          message: 'Wrap the child in owned() (tests/support/children.ts) so it dies with the test.',
        },
      ],
    },
  },
  {
    // An HTTP suite reads every answer through client() or checkedFetch(), which check it against the OpenAPI document.
    files: ['tests/http/**/*.ts'],
    rules: { 'no-restricted-globals': ['error', { name: 'fetch', message: 'Use checkedFetch() or client() (tests/support/app.ts): every answer an HTTP suite reads is checked against the OpenAPI document.' }] },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The routes' reply schemas are zod: the client takes their inferred types, which cost nothing at run time.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@scriptorium/domain/protocol/http/*'], allowTypeImports: true, message: 'Import the reply types only (import type): a value import pulls zod into the client bundle.' }] },
      ],
    },
  },
  {
    // A reply, body or query type written in the client could drift from the server's unnoticed (tests/lint/replies.test.ts proves the rules on planted calls).
    files: ['frontend/src/**/*.{ts,tsx}'],
    ignores: ['frontend/src/**/*.test.{ts,tsx}'],
    plugins: { scriptorium },
    rules: { 'scriptorium/reply-type-from-protocol': 'error', 'scriptorium/request-type-from-protocol': 'error' },
  },
  {
    // What the reader sees is worded in the catalogues (tests/lint/texts.test.ts proves the rule on planted texts),
    // and an inline style holds to the design tokens (tests/lint/styles.test.ts).
    files: ['frontend/src/**/*.{ts,tsx}'],
    ignores: ['frontend/src/i18n/**', 'frontend/src/**/*.test.{ts,tsx}', 'frontend/src/**/fixtures.ts'],
    plugins: { scriptorium },
    rules: { 'scriptorium/user-facing-text': 'error', 'scriptorium/no-hand-kept-busy': 'error', 'scriptorium/style-tokens': 'error' },
  },
);
