// The test files of tests/security in one process for full runs (ava.config.js); written by tests/support/units.ts.
import '../../tests/security/authz.test.ts';
import '../../tests/security/budgetHolds.test.ts';
import '../../tests/security/contentType.test.ts';
import '../../tests/security/fuzz.test.ts';
import '../../tests/security/fuzzContent.test.ts';
import '../../tests/security/headers.test.ts';
import '../../tests/security/registration.test.ts';
import '../../tests/security/sharePrivacy.test.ts';
import '../../tests/security/shareScope.test.ts';
import '../../tests/security/socketAuth.test.ts';
import '../../tests/security/socketFlood.test.ts';
import '../../tests/security/uploadBombs.test.ts';
import '../../tests/security/xss.test.ts';
