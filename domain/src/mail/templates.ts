import type { MailMessage } from '@scriptorium/infra/mail/port';
import type { FeedbackType } from '../feedback/feedback.ts';

/** The product's mails. Plain text: it reads the same in every client and in the outbox. */

export const verificationMail = (email: string, code: string, ttlSeconds: number): MailMessage => ({
  to: [email],
  subject: `Scriptorium 邮箱验证码：${code}`,
  text: [
    '您好！',
    '',
    `您的邮箱验证码是：${code}`,
    `验证码 ${Math.round(ttlSeconds / 60)} 分钟内有效。如果这不是您本人的操作，请忽略本邮件。`,
    '',
    '—— Scriptorium',
  ].join('\n'),
});

export const passwordResetMail = (email: string, code: string, ttlSeconds: number): MailMessage => ({
  to: [email],
  subject: `Scriptorium 重置密码验证码：${code}`,
  text: [
    '您好！',
    '',
    `您正在重置 Scriptorium 账户的密码，验证码是：${code}`,
    `验证码 ${Math.round(ttlSeconds / 60)} 分钟内有效。重置后，该账户在其他设备上的登录将全部退出。`,
    '如果这不是您本人的操作，请忽略本邮件，您的密码不会改变。',
    '',
    '—— Scriptorium',
  ].join('\n'),
});

const FEEDBACK_LABELS: Record<FeedbackType, string> = { bug: '问题报告', feature: '功能建议', general: '其他' };

export const feedbackMail = (to: string[], feedback: { username: string; email: string; feedbackType: FeedbackType; text: string; at: string }): MailMessage => ({
  to,
  subject: `[用户反馈] ${FEEDBACK_LABELS[feedback.feedbackType]} · ${feedback.username}`,
  text: [`类型：${FEEDBACK_LABELS[feedback.feedbackType]}`, `用户：${feedback.username} <${feedback.email}>`, `时间：${feedback.at}`, '', feedback.text].join('\n'),
});

export const adminMail = (to: string, subject: string, content: string): MailMessage => ({ to: [to], subject, text: content });
