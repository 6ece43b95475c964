import { fetchMe } from '../api/auth.ts';
import { api } from '../api/client.ts';

/** Token info as GET /auth/user/token-info (and the admin's user rows) answer it; amounts in cognition coins. */
export interface TokenInfo {
  token_level_limit: number;
  today_usage: number;
  extra_budget: number;
  total_available: number;
  token_remaining: number;
  user_level: string;
  all_usage: number;
  last_refresh_date: string;
  membership_expires_at?: string | null;
  /** The zone whose days the quota counts. */
  time_zone?: string;
}

export type FeedbackType = 'bug' | 'feature' | 'general';

export interface RegistrationSettings {
  invite_code_required: boolean;
  email_verification_required: boolean;
}

export const accountApi = {
  me: () => fetchMe(),
  tokenInfo: () => api.get<TokenInfo>('/auth/user/token-info'),
  sendVerificationEmail: (email: string) => api.post<{ message?: string }>('/auth/send-verification-email', { json: { email } }),
  resendVerificationEmail: (email: string) => api.post<{ message?: string }>('/auth/resend-verification-email', { json: { email } }),
  verifyEmail: (email: string, code: string) => api.post<{ message?: string }>('/auth/verify-email', { json: { email, code } }),
  sendFeedback: (feedback_type: FeedbackType, feedback_text: string) => api.post<unknown>('/email/user-feedback', { json: { feedback_type, feedback_text } }),
  logout: () => api.post<unknown>('/auth/logout'),
  /** Every sign-in made before the change ends, this one too: the answer carries this browser's new token. */
  changePassword: (current_password: string, new_password: string) => api.post<{ access_token: string }>('/auth/password', { json: { current_password, new_password } }),
  requestPasswordReset: (email: string) => api.post<{ message?: string }>('/auth/password-reset/request', { json: { email } }),
  resetPassword: (email: string, code: string, new_password: string) => api.post<{ message?: string }>('/auth/password-reset', { json: { email, code, new_password } }),
  registrationSettings: () => api.get<RegistrationSettings>('/auth/registration-settings'),
};
