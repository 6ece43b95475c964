// The test files of tests/ws in one process for full runs (ava.config.js); written by tests/support/units.ts.
import '../../tests/ws/collab.test.ts';
import '../../tests/ws/conversation.test.ts';
import '../../tests/ws/engineer.test.ts';
import '../../tests/ws/gateway.test.ts';
