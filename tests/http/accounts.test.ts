import type { AddressInfo } from 'node:net';
import test from 'ava';
import { SMTPServer } from 'smtp-server';
import { client, signInAdmin, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { BATTERY_NOTES, cognitionFromNotes } from '../support/cognition.ts';

/** A real SMTP server in this process: the product mails it as it would any server. */
interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, encoding: string, text: string) =>
    encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replaceAll('_', ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const joined = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headerText = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map(headerText.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const body = raw.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const text = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body;
  return { to, subject: decodeWords(headers.get('subject') ?? ''), text };
}

async function startSmtp() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((rcpt) => rcpt.address)));
        callback();
      });
    },
  });
  const listening = await new Promise<ReturnType<typeof server.listen>>((resolve) => {
    const net = server.listen(0, '127.0.0.1', () => resolve(net));
  });
  return {
    url: `smtp://127.0.0.1:${(listening.address() as AddressInfo).port}`,
    mails,
    /** The code of the newest verification mail to an address. */
    codeFor(address: string): string {
      const mail = mails.filter((candidate) => candidate.to.includes(address) && candidate.subject.includes('验证码')).at(-1);
      const code = mail && /验证码是：(\d{6})/.exec(mail.text)?.[1];
      if (!code) throw new Error(`no verification mail to ${address}`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: Client;
test.before(async () => {
  smtp = await startSmtp();
  app = await startTestApp({
    TRUST_PROXY: 'true',
    ADMIN_USERNAME: 'root',
    ADMIN_PASSWORD: 'root-password',
    SMTP_URL: smtp.url,
    INVITE_CODE_REQUIRED: 'true',
    EMAIL_VERIFICATION_REQUIRED: 'true',
    TOKENS_PER_COIN: '1',
    LOGIN_MAX_FAILURES: '3',
  });
  admin = await signInAdmin(app.url);
});
test.after.always(async () => {
  await app?.stop();
  await smtp?.close();
});

const eventCount = () => app.services.events.headPosition();
/** Waits until the process managers and read models have taken in everything written so far. */
const settle = () => app.settle();
const inviteCodes = async (count: number): Promise<string[]> => (await admin.request('POST', '/backend/auth/admin/invite-codes/generate', { count })).body.invite_codes.map((code: { code: string }) => code.code);

/** Registers with an invite code and the code mailed to the address, then signs in. */
async function register(username: string): Promise<Client & { userId: string }> {
  const email = `${username}@example.com`;
  const [invite] = await inviteCodes(1);
  t_ok((await client(app.url).request('POST', '/backend/auth/send-verification-email', { email })).status, 'send code');
  const registered = await client(app.url).request('POST', '/backend/auth/register', { username, email, password: 'correct horse battery', invite_code: invite, email_verification_code: smtp.codeFor(email) });
  t_ok(registered.status, `register ${username}: ${JSON.stringify(registered.body)}`);
  const login = await client(app.url).request('POST', '/backend/auth/login', { username, password: 'correct horse battery' }, { form: true });
  return Object.assign(client(app.url, login.body.access_token), { userId: registered.body.id as string });
}
function t_ok(status: number, what: string) {
  if (status !== 200) throw new Error(`${what}: ${status}`);
}

async function chatOnce(user: Client, sessionId: string, text: string) {
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text });
  if (sent.status !== 200) return sent;
  for (;;) {
    const status = await user.request('GET', `/backend/conversation/research/${sessionId}/status`);
    if (!status.body.processing) return sent;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test.serial('the registration form learns what it must ask for', async (t) => {
  const settings = await client(app.url).request('GET', '/backend/auth/registration-settings');
  t.deepEqual(settings.body, { invite_code_required: true, email_verification_required: true, code_length: 6, resend_seconds: 120 });
});

test.serial('invite, real e-mail code, budget spent, reward claimed, feedback sent, limit raised: the whole story', async (t) => {
  const codes = await inviteCodes(3);
  t.is(codes.length, 3);
  const email = 'mei@example.com';
  const form = { username: 'mei', email, password: 'correct horse battery' };

  let before = await eventCount();
  const noInvite = await client(app.url).request('POST', '/backend/auth/register', { ...form, email_verification_code: '123456' });
  t.is(noInvite.status, 422);
  t.deepEqual(noInvite.body.detail[0].loc, ['body', 'invite_code']);
  const badInvite = await client(app.url).request('POST', '/backend/auth/register', { ...form, invite_code: 'NOPE2345', email_verification_code: '123456' });
  t.is(badInvite.status, 400);
  t.is(badInvite.body.detail, '邀请码无效');
  t.is(await eventCount(), before, 'refused registrations write nothing');

  const sent = await client(app.url).request('POST', '/backend/auth/send-verification-email', { email });
  t.is(sent.status, 200);
  t.is(sent.body.resend_after, 120);
  const code = smtp.codeFor(email);
  t.regex(code, /^\d{6}$/);
  const tooSoon = await client(app.url).request('POST', '/backend/auth/resend-verification-email', { email });
  t.is(tooSoon.status, 429);
  const retryAfter = Number(tooSoon.headers.get('retry-after'));
  t.true(retryAfter > 0 && retryAfter <= 120);
  t.is(smtp.mails.filter((mail) => mail.to.includes(email)).length, 1, 'the countdown holds on the server');

  const wrong = await client(app.url).request('POST', '/backend/auth/register', { ...form, invite_code: codes[0], email_verification_code: code === '000000' ? '000001' : '000000' });
  t.is(wrong.status, 400);
  t.is(wrong.body.detail, '验证码错误，还可尝试 4 次');
  t.is((await client(app.url).request('POST', '/backend/auth/login', form, { form: true })).status, 401, 'no account was made');

  const registered = await client(app.url).request('POST', '/backend/auth/register', { ...form, invite_code: codes[0]!.toLowerCase(), email_verification_code: code });
  t.is(registered.status, 200);
  t.like(registered.body, { username: 'mei', email_verified: true, is_active: true });

  const used = await admin.request('GET', '/backend/auth/admin/invite-codes?status=used');
  t.deepEqual(used.body.invite_codes.map((invite: { code: string; used_by_username: string }) => [invite.code, invite.used_by_username]), [[codes[0], 'mei']]);
  const unused = await admin.request('GET', '/backend/auth/admin/invite-codes?status=unused');
  t.is(unused.body.total, 2);
  t.is(unused.body.limit, 10);

  await client(app.url).request('POST', '/backend/auth/send-verification-email', { email: 'nora@example.com' });
  before = await eventCount();
  const reused = await client(app.url).request('POST', '/backend/auth/register', { username: 'nora', email: 'nora@example.com', password: 'correct horse battery', invite_code: codes[0], email_verification_code: smtp.codeFor('nora@example.com') });
  t.is(reused.status, 400);
  t.is(reused.body.detail, '邀请码已被使用');
  t.is(await eventCount(), before, 'a reused invite changes nothing');

  const login = await client(app.url).request('POST', '/backend/auth/login', form, { form: true });
  const mei = client(app.url, login.body.access_token);
  t.like((await mei.request('GET', '/backend/auth/user/token-info')).body, { token_level_limit: 100, today_usage: 0, total_available: 100, user_level: 'basic' });

  // Research until the budget runs out: with one token a coin, 100 coins last a reply or two.
  const { body: session } = await mei.request('POST', '/backend/conversation/sessions', { client_id: 'mei-client' });
  let refused;
  for (let round = 0; round < 20 && !refused; round++) {
    await settle();
    before = await eventCount();
    const reply = await chatOnce(mei, session.session_id, `第 ${round + 1} 个问题：事件溯源有什么好处？`);
    if (reply.status === 402) {
      refused = reply;
      t.is(await eventCount(), before, 'a refused call runs nothing');
    } else t.is(reply.status, 200);
  }
  t.is(refused?.body.detail, 'Token使用额度已用尽，请联系管理员进行充值');

  // A task reward: three different cognitions viewed, the same one twice counting once.
  const published: string[] = [];
  for (const note of BATTERY_NOTES) {
    const id = await cognitionFromNotes(admin, [note]);
    await admin.request('PATCH', `/backend/api/cognition/${id}`, { public: true });
    published.push(id);
  }
  for (const id of [published[0], published[0], published[1]]) t.is((await mei.request('POST', `/backend/api/cognition/${id}/view`)).status, 200);
  const third = await mei.request('POST', '/backend/api/tasks/action', { action_type: 'view_cognition', target_id: 'cog-3' });
  t.is(third.status, 200);
  const [result] = third.body;
  t.like(result, { completed: true, coins_earned: 20 });
  const claimed = await mei.request('POST', `/backend/api/tasks/claim/${result.task_id}`);
  t.is(claimed.status, 200);
  t.like(claimed.body, { coins_earned: 20, balance: 20 });
  before = await eventCount();
  const again = await mei.request('POST', `/backend/api/tasks/claim/${result.task_id}`);
  t.is(again.status, 409);
  t.is(await eventCount(), before, 'a second claim changes nothing');
  t.is((await mei.request('GET', '/backend/api/coins/balance')).body.balance, 20);

  const feedback = await mei.request('POST', '/backend/email/user-feedback', { feedback_type: 'bug', feedback_text: '额度用完后提示很清楚' });
  t.is(feedback.status, 200);
  const mailed = smtp.mails.at(-1)!;
  t.deepEqual(mailed.to, ['admin@scriptorium.local']);
  t.true(mailed.subject.includes('用户反馈'));
  t.true(mailed.text.includes('额度用完后提示很清楚'));
  const listed = await admin.request('GET', '/backend/auth/admin/feedback');
  t.like(listed.body.feedback[0], { username: 'mei', feedback_type: 'bug', feedback_text: '额度用完后提示很清楚' });

  await settle();
  const overview = await admin.request('GET', '/backend/auth/admin/users/token-overview?search=mei');
  const row = overview.body.users[0];
  t.is(row.username, 'mei');
  t.true(row.today_usage >= 100, 'the admin sees the usage that exhausted the budget');
  const usage = await admin.request('GET', `/backend/auth/admin/users/${row.user_id}/token-usage`);
  t.is(usage.body.sessions[0].session_id, session.session_id);
  const sessions = await admin.request('GET', '/backend/conversation/api/admin/sessions-token-usage');
  t.true(sessions.body.sessions.some((entry: { session_id: string }) => entry.session_id === session.session_id));

  const raised = await admin.request('PUT', `/backend/auth/admin/users/${row.user_id}/token-limit`, { token_level_limit: 100_000 });
  t.is(raised.status, 200);
  t.true(raised.body.total_available > 90_000);
  const continued = await chatOnce(mei, session.session_id, '再问一个问题：投影是什么？');
  t.is(continued.status, 200);
  const history = await mei.request('GET', `/backend/conversation/sessions/${session.session_id}/messages`);
  t.is(history.body.messages.at(-1).status, 'completed');
});

test.serial('a code sent to a changed address verifies the account holding it', async (t) => {
  const user = await register('olga');
  const moved = await user.request('PATCH', `/backend/users/${user.userId}`, { email: 'olga.new@example.com' });
  t.is(moved.body.email_verified, false);
  t.is((await user.request('POST', '/backend/auth/send-verification-email', { email: 'olga.new@example.com' })).status, 200);
  const verified = await client(app.url).request('POST', '/backend/auth/verify-email', { email: 'olga.new@example.com', code: smtp.codeFor('olga.new@example.com') });
  t.is(verified.status, 200);
  t.true(verified.body.account_verified);
  t.true((await user.request('GET', '/backend/auth/me')).body.email_verified);
});

test.serial('wrong codes run out, and then even the right one is refused', async (t) => {
  const email = 'pia@example.com';
  await client(app.url).request('POST', '/backend/auth/send-verification-email', { email });
  const code = smtp.codeFor(email);
  const wrong = code === '111111' ? '222222' : '111111';
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push((await client(app.url).request('POST', '/backend/auth/verify-email', { email, code: wrong })).body.detail);
  t.deepEqual(answers, ['验证码错误，还可尝试 4 次', '验证码错误，还可尝试 3 次', '验证码错误，还可尝试 2 次', '验证码错误，还可尝试 1 次', '验证码错误次数过多，请重新获取']);
  const right = await client(app.url).request('POST', '/backend/auth/verify-email', { email, code });
  t.is(right.status, 400);
  t.is(right.body.detail, '验证码错误次数过多，请重新获取');
  const malformed = await client(app.url).request('POST', '/backend/auth/verify-email', { email, code: '12ab56' });
  t.is(malformed.status, 422);
});

test.serial('admin login refuses ordinary users, and failed logins are limited per user and address', async (t) => {
  const quinn = await register('quinn');
  t.truthy(quinn.token);
  const asAdmin = await client(app.url).request('POST', '/backend/auth/admin/login', { username: 'quinn', password: 'correct horse battery' }, { form: true });
  t.is(asAdmin.status, 403);
  t.is(asAdmin.body.detail, '权限不足，无法访问');
  const from = (ip: string) => ({ form: true, headers: { 'x-forwarded-for': ip } });
  for (let i = 0; i < 3; i++) {
    t.is((await client(app.url).request('POST', '/backend/auth/login', { username: 'quinn', password: 'wrong password' }, from('203.0.113.7'))).status, 401);
  }
  const locked = await client(app.url).request('POST', '/backend/auth/login', { username: 'quinn', password: 'correct horse battery' }, from('203.0.113.7'));
  t.is(locked.status, 429);
  t.true(Number(locked.headers.get('retry-after')) > 0);
  const elsewhere = await client(app.url).request('POST', '/backend/auth/login', { username: 'quinn', password: 'correct horse battery' }, from('198.51.100.2'));
  t.is(elsewhere.status, 200);
});

test.serial('logging out revokes that token only', async (t) => {
  const rosa = await register('rosa');
  const second = await client(app.url).request('POST', '/backend/auth/login', { username: 'rosa', password: 'correct horse battery' }, { form: true });
  t.is((await rosa.request('POST', '/backend/auth/logout')).status, 200);
  t.is((await rosa.request('GET', '/backend/auth/me')).status, 401);
  t.is((await client(app.url, second.body.access_token).request('GET', '/backend/auth/me')).status, 200);
});

test.serial('a deactivated account may read itself and nothing else, until it is switched on again', async (t) => {
  const sam = await register('sam');
  t.is((await admin.request('PUT', `/backend/auth/admin/users/${sam.userId}/active`, { is_active: false })).status, 200);
  const me = await sam.request('GET', '/backend/auth/me');
  t.is(me.status, 200);
  t.false(me.body.is_active);
  const refused = await sam.request('GET', '/backend/auth/user/token-info');
  t.is(refused.status, 403);
  t.is(refused.body.detail, '账户已停用，请联系管理员');
  t.is((await sam.request('POST', '/backend/conversation/sessions', { client_id: 'x' })).status, 403);
  const self = await admin.request('GET', '/backend/auth/me');
  t.is((await admin.request('PUT', `/backend/auth/admin/users/${self.body.id}/active`, { is_active: false })).status, 403, 'an admin cannot switch themselves off');
  t.is((await admin.request('PUT', `/backend/auth/admin/users/${sam.userId}/active`, { is_active: true })).status, 200);
  t.is((await sam.request('GET', '/backend/auth/user/token-info')).status, 200);
});

test.serial('an admin’s mail reaches the SMTP server', async (t) => {
  const sent = await admin.request('POST', '/backend/auth/admin/send-email', { to_email: 'someone@example.com', subject: '维护通知', content: '今晚 22:00 维护。' });
  t.is(sent.status, 200);
  t.like(smtp.mails.at(-1), { to: ['someone@example.com'], subject: '维护通知', text: '今晚 22:00 维护。' });
  const outbox = await admin.request('GET', '/backend/auth/admin/outbox');
  t.like(outbox.body, { transport: 'smtp', total: 0 });
});
