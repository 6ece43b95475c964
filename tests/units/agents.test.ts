// The test files of tests/agents in one process for full runs (ava.config.js); written by tests/support/units.ts.
import '../../tests/agents/corpus.test.ts';
import '../../tests/agents/material.test.ts';
import '../../tests/agents/research-crash.test.ts';
import '../../tests/agents/research.test.ts';
import '../../tests/agents/web.test.ts';
