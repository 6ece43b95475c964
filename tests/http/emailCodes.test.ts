/**
 * Reopening the verification window asks for a code again. Neither the refused request (within the
 * countdown) nor a new code (after it) may void the code the user already has in their mailbox.
 */
import test from 'ava';
import { client, signInAdmin, startTestApp, type Client, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: Client;

test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password', SMTP_URL: '', EMAIL_CODE_RESEND_SECONDS: '1' });
  admin = await signInAdmin(app.url);
});
test.after.always(async () => {
  await app?.stop();
});

/** Every code mailed to an address, oldest first, read from the development outbox. */
async function mailedCodes(email: string): Promise<string[]> {
  await app.settle();
  const { body } = await admin.request('GET', '/backend/auth/admin/outbox?limit=100');
  return (body.mails as Array<{ to: string[]; subject: string }>)
    .filter((mail) => mail.to.includes(email))
    .map((mail) => /(\d{6})/.exec(mail.subject)?.[1] ?? '')
    .reverse();
}

const send = (email: string) => client(app.url).request('POST', '/backend/auth/send-verification-email', { email });
const verify = (email: string, code: string) => client(app.url).request('POST', '/backend/auth/verify-email', { email, code });

test.serial('a second request within the countdown is refused and the first code still verifies', async (t) => {
  const email = 'quinn@example.com';
  t.is((await send(email)).status, 200);
  const again = await send(email);
  t.is(again.status, 429);
  t.is(again.body.code, 'auth.resend_too_soon');
  t.true(again.body.params.seconds > 0);
  const codes = await mailedCodes(email);
  t.is(codes.length, 1, 'no second mail');
  t.is((await verify(email, codes[0]!)).status, 200);
});

test.serial('after the countdown a new code is mailed, and the first one still verifies', async (t) => {
  const email = 'rosa@example.com';
  t.is((await send(email)).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  t.is((await send(email)).status, 200);
  const [first, second] = await mailedCodes(email);
  t.truthy(first && second);
  const accepted = await verify(email, first!);
  t.is(accepted.status, 200, JSON.stringify(accepted.body));
  t.is((await verify(email, second!)).status, 200, 'the newest code works too');
});
