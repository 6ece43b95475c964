import test from 'ava';
import type { MailOutboxed } from '@scriptorium/infra/mail/outbox';
import { T1, T2 } from './fixtures.ts';
import { MAIL_OUTBOX, outboxProjection } from './outbox.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<MailOutboxed>(outboxProjection);
const mail = (mailId: string, at: string): MailOutboxed => ({
  type: 'MailOutboxed',
  data: { mailId, from: 'noreply@scriptorium.test', to: ['ada@example.org'], subject: '验证码', text: '您的验证码是 123456', at },
});

test('kept mail is listed newest first, for admins to read the codes', async (t) => {
  await spec.given(mail('mail-1', T1), mail('mail-2', T2)).then(
    t,
    MAIL_OUTBOX,
    [{ _id: 'mail-2', created_at: T2 }, { _id: 'mail-1', from: 'noreply@scriptorium.test', to: ['ada@example.org'], subject: '验证码', text: '您的验证码是 123456', created_at: T1 }],
    { sort: { created_at: -1 } },
  );
});
