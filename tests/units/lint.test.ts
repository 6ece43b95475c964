// The test files of tests/lint in one process for full runs (ava.config.js); written by tests/support/units.ts.
import '../../tests/lint/busy.test.ts';
import '../../tests/lint/imports.test.ts';
import '../../tests/lint/replies.test.ts';
import '../../tests/lint/styles.test.ts';
import '../../tests/lint/texts.test.ts';
import '../../tests/lint/units.test.ts';
import '../../tests/lint/wording.test.ts';
