import test from 'ava';
import { newPasswordProblem } from './password.ts';

test('a new password is checked as the server will: long enough, and typed the same twice', (t) => {
  t.is(newPasswordProblem('short', 'short'), 'tooShort');
  t.is(newPasswordProblem('a new passphrase', 'a new passphrase!'), 'mismatch');
  t.is(newPasswordProblem('a new passphrase', 'a new passphrase'), null);
});
