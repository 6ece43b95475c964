// The test files of tests/docs in one process for full runs (ava.config.js); written by tests/support/units.ts.
import '../../tests/docs/errors.test.ts';
import '../../tests/docs/events.test.ts';
