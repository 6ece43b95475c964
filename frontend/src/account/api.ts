import { fetchMe } from '../api/auth.ts';
import type { ChangePasswordBody, CodeSentReply, EmailBody, EmailVerifiedReply, MessageReply, RegistrationSettings, ResetPasswordBody, SignInReply, VerifyEmailBody } from '@scriptorium/domain/protocol/http/auth';
import type { FeedbackBody, FeedbackSent } from '@scriptorium/domain/protocol/http/feedback';
import type { UserRow } from '@scriptorium/domain/protocol/http/admin';
import { api } from '../api/client.ts';

/** Token info as GET /auth/user/token-info (and the admin's user rows) answer it; amounts in cognition coins. */
export type { TokenInfo } from '@scriptorium/domain/protocol/http/admin';
export type { RegistrationSettings } from '@scriptorium/domain/protocol/http/auth';

export const accountApi = {
  me: () => fetchMe(),
  tokenInfo: () => api.get<UserRow>('/auth/user/token-info'),
  sendVerificationEmail: (email: string) => api.post<CodeSentReply, EmailBody>('/auth/send-verification-email', { json: { email } }),
  resendVerificationEmail: (email: string) => api.post<CodeSentReply, EmailBody>('/auth/resend-verification-email', { json: { email } }),
  verifyEmail: (email: string, code: string) => api.post<EmailVerifiedReply, VerifyEmailBody>('/auth/verify-email', { json: { email, code } }),
  sendFeedback: (feedback_type: FeedbackBody['feedback_type'], feedback_text: string) => api.post<FeedbackSent, FeedbackBody>('/email/user-feedback', { json: { feedback_type, feedback_text } }),
  logout: () => api.post<MessageReply>('/auth/logout'),
  /** Every sign-in made before the change ends, this one too: the answer carries this browser's new token. */
  changePassword: (current_password: string, new_password: string) => api.post<SignInReply, ChangePasswordBody>('/auth/password', { json: { current_password, new_password } }),
  requestPasswordReset: (email: string) => api.post<CodeSentReply, EmailBody>('/auth/password-reset/request', { json: { email } }),
  resetPassword: (email: string, code: string, new_password: string) => api.post<MessageReply, ResetPasswordBody>('/auth/password-reset', { json: { email, code, new_password } }),
  registrationSettings: () => api.get<RegistrationSettings>('/auth/registration-settings'),
};
