/**
 * The module graph, stated as rules (docs/architecture.md draws it): infra ← domain ← projections ←
 * api, workers; only the composition root (backend/src/main.ts) sees every workspace. The client
 * shares the wire protocol and nothing else.
 */
const infra = '^infra/';
const domain = '^domain/';
const projections = '^projections/';
const workers = '^workers/';
const backend = '^backend/';
const frontend = '^frontend/';
const compositionRoot = '^backend/src/main\\.ts$';
/** What ships: every workspace's source. */
const production = '^(infra|domain|projections|workers|backend|frontend)/src/';
/** Test code kept beside what it tests: the tests themselves and their helpers. */
const testCode = ['\\.test\\.tsx?$', '/testing\\.ts$', '^projections/src/fixtures\\.ts$', '^workers/src/agents/deep_cognition/harness\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'infra-imports-infra-only',
      comment: 'Ports and adapters know nothing of the domain or of any role.',
      severity: 'error',
      from: { path: infra },
      to: { path: [domain, projections, workers, backend, frontend] },
    },
    {
      name: 'domain-imports-infra-only',
      comment: 'The kernel (deciders, jobs, protocol, tools) imports only infra ports.',
      severity: 'error',
      from: { path: domain },
      to: { path: [projections, workers, backend, frontend] },
    },
    {
      name: 'projections-import-domain-and-infra',
      severity: 'error',
      from: { path: projections },
      to: { path: [workers, backend, frontend] },
    },
    {
      name: 'workers-do-not-import-the-api',
      severity: 'error',
      from: { path: workers },
      to: { path: [backend, frontend] },
    },
    {
      name: 'api-does-not-import-workers',
      comment: 'Routes and the gateway reach agents only through jobs and kernel ports; main.ts wires the roles.',
      severity: 'error',
      from: { path: backend, pathNot: compositionRoot },
      to: { path: [workers, frontend] },
    },
    {
      name: 'projections-are-defined-in-projections',
      comment: 'Only a projection implements the Projection interface; everyone else reads their documents.',
      severity: 'error',
      from: { pathNot: [projections, compositionRoot] },
      to: { path: '^projections/src/projection\\.ts$' },
    },
    {
      name: 'protocol-is-a-leaf',
      comment: 'The wire protocol is what the client shares, so it may not pull the rest of the kernel into the bundle.',
      severity: 'error',
      from: { path: '^domain/src/protocol/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^domain/src/(?!protocol/)', infra] },
    },
    {
      name: 'client-shares-only-the-protocol',
      severity: 'error',
      from: { path: frontend },
      to: { path: [infra, projections, workers, backend, '^domain/src/(?!protocol/)'] },
    },
    {
      name: 'declared-workspace-dependencies',
      comment: 'A workspace declares in its package.json every package it imports.',
      severity: 'error',
      from: { path: '^(infra|domain|projections|workers|backend|frontend)/src/' , pathNot: '\\.test\\.tsx?$' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'production-imports-no-dev-dependencies',
      comment: 'What ships may not lean on packages installed only for development (the root package.json\'s openai, playwright-core…, a workspace\'s own devDependencies); tests, their helpers and the tsx entry of the document worker (*.dev.mjs) may. Proved by tests/lint/imports.test.ts.',
      severity: 'error',
      from: { path: production, pathNot: [...testCode, '\\.dev\\.mjs$'] },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['npm'] },
    },
    {
      name: 'production-does-not-import-tests',
      comment: 'Nor on the test suite\'s code (tests/), which tests beside the code may use.',
      severity: 'error',
      from: { path: production, pathNot: testCode },
      to: { path: '^tests/' },
    },
    {
      name: 'production-does-not-import-test-helpers',
      comment: 'The helpers kept beside the code for its tests (testing.ts, fixtures, the research harness) import ava and test doubles: what ships may not reach them.',
      severity: 'error',
      from: { path: production, pathNot: testCode },
      to: { path: testCode.slice(1) },
    },
    {
      name: 'no-circular-within-a-workspace',
      severity: 'error',
      from: { path: '^(infra|domain|projections|workers|backend)/src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['frontend/dist', 'tests/e2e/screenshots'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
