// The test files of backend/src in one process for full runs (ava.config.js); written by tests/support/units.ts.
import '../../backend/src/auth/deviceCookie.test.ts';
import '../../backend/src/auth/tokens.test.ts';
