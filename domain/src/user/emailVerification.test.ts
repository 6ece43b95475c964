import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { CodeRejected, codeHash, newCode, ResendTooSoon, verificationDecider, type VerificationEvent } from './emailVerification.ts';

const spec = deciderSpec(verificationDecider);
const settings = { ttlSeconds: 600, resendSeconds: 120, maxAttempts: 3 };
const issued: VerificationEvent = {
  type: 'VerificationCodeIssued',
  data: { email: 'a@x.com', codeHash: 'right', issuedAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T00:10:00.000Z', attempts: 3 },
};
const failed = (attemptsLeft: number, time = '2026-01-01T00:01:00.000Z'): VerificationEvent => ({ type: 'VerificationAttemptFailed', data: { email: 'a@x.com', attemptsLeft, at: time } });

test('a code is issued with its expiry and attempts', (t) => {
  spec([])
    .when({ type: 'IssueCode', data: { email: 'a@x.com', codeHash: 'right', ...settings }, metadata: at('2026-01-01T00:00:00Z') })
    .then(t, [issued]);
});

test('a new code waits for the 120-second countdown', (t) => {
  const run = () => verificationDecider.decide({ type: 'IssueCode', data: { email: 'a@x.com', codeHash: 'next', ...settings }, metadata: at('2026-01-01T00:01:30Z') }, verificationDecider.evolve(verificationDecider.initialState(), issued));
  const error = t.throws(run, { instanceOf: ResendTooSoon });
  t.is(error?.retryAfterSeconds, 30);
  spec([issued])
    .when({ type: 'IssueCode', data: { email: 'a@x.com', codeHash: 'next', ...settings }, metadata: at('2026-01-01T00:02:00Z') })
    .then(t, [{ type: 'VerificationCodeIssued', data: { ...issued.data, codeHash: 'next', issuedAt: '2026-01-01T00:02:00.000Z', expiresAt: '2026-01-01T00:12:00.000Z' } }]);
});

test('a mail that could not be sent voids its code and lifts the countdown', (t) => {
  const withdrawn: VerificationEvent = { type: 'VerificationCodeWithdrawn', data: { email: 'a@x.com', at: '2026-01-01T00:00:01.000Z' } };
  spec([issued]).when({ type: 'WithdrawCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:00:01Z') }).then(t, [withdrawn]);
  spec([issued]).when({ type: 'WithdrawCode', data: { codeHash: 'other' }, metadata: at('2026-01-01T00:00:01Z') }).then(t, []);
  spec([issued, withdrawn])
    .when({ type: 'IssueCode', data: { email: 'a@x.com', codeHash: 'again', ...settings }, metadata: at('2026-01-01T00:00:02Z') })
    .then(t, [{ type: 'VerificationCodeIssued', data: { ...issued.data, codeHash: 'again', issuedAt: '2026-01-01T00:00:02.000Z', expiresAt: '2026-01-01T00:10:02.000Z' } }]);
});

test('the right code is accepted, and stays good until it expires', (t) => {
  const accepted: VerificationEvent = { type: 'VerificationCodeAccepted', data: { email: 'a@x.com', at: '2026-01-01T00:01:00.000Z' } };
  spec([issued]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:01:00Z') }).then(t, [accepted]);
  spec([issued, accepted]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:05:00Z') }).then(t, []);
  spec([issued, accepted]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:10:00Z') }).thenThrows(t, 'invalid', '验证码已过期，请重新获取');
});

test('a new code leaves the one mailed before it good until that one expires', (t) => {
  const next: VerificationEvent = { type: 'VerificationCodeIssued', data: { ...issued.data, codeHash: 'next', issuedAt: '2026-01-01T00:03:00.000Z', expiresAt: '2026-01-01T00:13:00.000Z' } };
  const acceptedAt = (time: string): VerificationEvent => ({ type: 'VerificationCodeAccepted', data: { email: 'a@x.com', at: time } });
  spec([issued, next]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:04:00Z') }).then(t, [acceptedAt('2026-01-01T00:04:00.000Z')]);
  spec([issued, next]).when({ type: 'CheckCode', data: { codeHash: 'next' }, metadata: at('2026-01-01T00:04:00Z') }).then(t, [acceptedAt('2026-01-01T00:04:00.000Z')]);
  spec([issued, next]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:10:00Z') }).thenThrows(t, 'invalid', '验证码已过期，请重新获取');
  spec([issued, next]).when({ type: 'CheckCode', data: { codeHash: 'next' }, metadata: at('2026-01-01T00:10:00Z') }).then(t, [acceptedAt('2026-01-01T00:10:00.000Z')]);
  const third: VerificationEvent = { type: 'VerificationCodeIssued', data: { ...issued.data, codeHash: 'third', issuedAt: '2026-01-01T00:06:00.000Z', expiresAt: '2026-01-01T00:16:00.000Z' } };
  spec([issued, next, third]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:07:00Z') }).then(t, [failed(2, '2026-01-01T00:07:00.000Z')]);
  spec([issued, failed(2), failed(1), failed(0), next]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:01:00Z') }).then(t, [failed(2)]);
});

test('a wrong code spends an attempt; when none are left only a new code helps', (t) => {
  spec([issued]).when({ type: 'CheckCode', data: { codeHash: 'wrong' }, metadata: at('2026-01-01T00:01:00Z') }).then(t, [failed(2)]);
  spec([issued, failed(2), failed(1)]).when({ type: 'CheckCode', data: { codeHash: 'wrong' }, metadata: at('2026-01-01T00:01:00Z') }).then(t, [failed(0)]);
  spec([issued, failed(2), failed(1), failed(0)])
    .when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:01:00Z') })
    .thenThrows(t, 'invalid', '验证码错误次数过多，请重新获取');
});

test('no code, no verification', (t) => {
  spec([]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:01:00Z') }).thenThrows(t, 'invalid', '验证码无效，请先获取验证码');
  t.true(new CodeRejected('auth.code_missing') instanceof Error);
});

test('codes are six digits and hashed with the secret and the address', (t) => {
  for (let i = 0; i < 50; i++) t.regex(newCode(), /^\d{6}$/);
  t.is(codeHash('s', 'A@X.com', '123456'), codeHash('s', 'a@x.com', '123456'));
  t.not(codeHash('s', 'a@x.com', '123456'), codeHash('other', 'a@x.com', '123456'));
  t.not(codeHash('s', 'a@x.com', '123456'), codeHash('s', 'b@x.com', '123456'));
});

test('an accepted code that has done its work is withdrawn, and is then no code at all', (t) => {
  const accepted: VerificationEvent = { type: 'VerificationCodeAccepted', data: { email: 'a@x.com', at: '2026-01-01T00:01:00.000Z' } };
  const withdrawn: VerificationEvent = { type: 'VerificationCodeWithdrawn', data: { email: 'a@x.com', at: '2026-01-01T00:01:01.000Z' } };
  spec([issued, accepted]).when({ type: 'WithdrawCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:01:01Z') }).then(t, [withdrawn]);
  spec([issued, accepted, withdrawn]).when({ type: 'CheckCode', data: { codeHash: 'right' }, metadata: at('2026-01-01T00:01:02Z') }).thenThrows(t, 'invalid');
});
