import type {
  ConnectionTestResult,
  Connections,
  EndpointAdded,
  EndpointBody,
  ModelProfileQuery,
  ModelProfileWire,
  SearchConnectionBody,
  SmtpConnectionBody,
  SpeechConnectionBody,
} from '@scriptorium/domain/protocol/http/connections';
import type {
  ActiveBody,
  AdminMailSent,
  AdminPasswordBody,
  AuditorBody,
  BatchActiveBody,
  BatchExtraBudgetBody,
  BatchLevelBody,
  BatchRefreshBody,
  BatchTokenLimitBody,
  ExtraBudgetBody,
  GenerateInvitesBody,
  LevelBody,
  SendEmailBody,
  TokenLimitBody,
  AdminUserUsage,
  AllTokenUsage,
  AuditReads,
  AuditReadsQuery,
  BatchResult as Batch,
  FeedbackItem,
  FeedbackPage,
  FeedbackQuery,
  InviteCode,
  InviteCodes,
  InviteCodesQuery,
  InviteStatusFilter,
  InvitesGenerated,
  OutboxPage,
  OutboxQuery,
  PasswordReset,
  ReadModels,
  RebuildStarted,
  VerifyReport,
  SessionsTokenUsage,
  TokenOverview,
  TokenOverviewQuery,
  UsagePageQuery,
  UserRow,
  UserRows,
  UsersQuery,
} from '@scriptorium/domain/protocol/http/admin';
import { api } from '../api/client.ts';
import type { DailyLimitChoice, Level } from '@scriptorium/domain/protocol/levels';

export { LEVELS, LEVEL_DAILY_LIMITS, type DailyLimitChoice, type Level } from '@scriptorium/domain/protocol/levels';

export type { AuditRead, InviteStatusFilter, ReadModel, VerifyReport, Counts, FeedbackItem, InviteCode, OutboxMail, SessionTokens, UserRow, UserTokens, UserUsage } from '@scriptorium/domain/protocol/http/admin';

export type { ConnectionTestRecord, ConnectionTestResult, Connections, ModelEndpoint, ModelProfileWire, SecretHint } from '@scriptorium/domain/protocol/http/connections';

/** A model endpoint as the dialog edits it; a key left undefined keeps the saved one, null removes it. */
export type EndpointInput = EndpointBody;

export type SingleConnection = 'search' | 'smtp' | 'speech';

export const adminApi = {
  users: (query: UsersQuery) => api.get<UserRows, UsersQuery>('/auth/admin/users', { query }),
  tokenInfo: (id: string) => api.get<UserRow>(`/auth/admin/users/${encodeURIComponent(id)}/token-info`),
  setTokenLimit: (id: string, token_level_limit: number) => api.put<UserRow, TokenLimitBody>(`/auth/admin/users/${encodeURIComponent(id)}/token-limit`, { json: { token_level_limit } }),
  addExtraBudget: (id: string, amount: number) => api.post<UserRow, ExtraBudgetBody>(`/auth/admin/users/${encodeURIComponent(id)}/extra-budget`, { json: { amount } }),
  setLevel: (id: string, level: Level, membership_expires_at: string | null, daily_limit: DailyLimitChoice) =>
    api.put<UserRow, LevelBody>(`/auth/admin/users/${encodeURIComponent(id)}/level`, { json: { user_id: id, level, membership_expires_at, daily_limit } }),
  resetPassword: (id: string, new_password: string) => api.put<PasswordReset, AdminPasswordBody>(`/auth/admin/users/${encodeURIComponent(id)}/password`, { json: { new_password } }),
  refreshTokens: (id: string) => api.post<UserRow>(`/auth/admin/users/${encodeURIComponent(id)}/refresh-tokens`),
  setActive: (id: string, is_active: boolean) => api.put<UserRow, ActiveBody>(`/auth/admin/users/${encodeURIComponent(id)}/active`, { json: { is_active } }),
  batchRefresh: (user_ids: string[]) => api.post<Batch, BatchRefreshBody>('/auth/admin/users/batch-refresh-tokens', { json: { user_ids } }),
  batchLevel: (items: BatchLevelBody) => api.post<Batch, BatchLevelBody>('/auth/admin/users/batch-update-level', { json: items }),
  batchTokenLimit: (user_ids: string[], token_level_limit: number) => api.put<Batch, BatchTokenLimitBody>('/auth/admin/users/batch-token-limit', { json: { user_ids, token_level_limit } }),
  batchExtraBudget: (user_ids: string[], amount: number) => api.post<Batch, BatchExtraBudgetBody>('/auth/admin/users/batch-extra-budget', { json: { user_ids, amount } }),
  batchActive: (user_ids: string[], is_active: boolean) => api.post<Batch, BatchActiveBody>('/auth/admin/users/batch-active', { json: { user_ids, is_active } }),
  userUsage: (id: string) => api.get<AdminUserUsage>(`/auth/admin/users/${encodeURIComponent(id)}/token-usage`),
  tokenOverview: (skip: number, limit: number) =>
    api.get<TokenOverview, TokenOverviewQuery>('/auth/admin/users/token-overview', { query: { skip, limit } }),
  allTokenUsage: (skip: number, limit: number) => api.get<AllTokenUsage, UsagePageQuery>('/conversation/api/admin/token-usage', { query: { skip, limit } }),
  sessionsTokenUsage: (skip: number, limit: number) => api.get<SessionsTokenUsage, UsagePageQuery>('/conversation/api/admin/sessions-token-usage', { query: { skip, limit } }),
  generateInvites: (count: number) => api.post<InvitesGenerated, GenerateInvitesBody>('/auth/admin/invite-codes/generate', { json: { count } }),
  revokeInvite: (code: string) => api.post<InviteCode>(`/auth/admin/invite-codes/${encodeURIComponent(code)}/revoke`),
  invites: (skip: number, limit: number, status: InviteStatusFilter) => api.get<InviteCodes, InviteCodesQuery>('/auth/admin/invite-codes', { query: { skip, limit, status } }),
  sendEmail: (to_email: string, subject: string, content: string) => api.post<AdminMailSent, SendEmailBody>('/auth/admin/send-email', { json: { to_email, subject, content } }),
  feedback: (skip: number, limit: number, feedback_type?: FeedbackItem['feedback_type']) =>
    api.get<FeedbackPage, FeedbackQuery>('/auth/admin/feedback', { query: { skip, limit, feedback_type } }),
  setAuditor: (id: string, auditor: boolean) => api.post<UserRow, AuditorBody>(`/auth/admin/users/${encodeURIComponent(id)}/auditor`, { json: { auditor } }),
  auditReads: (skip: number, limit: number) => api.get<AuditReads, AuditReadsQuery>('/auth/admin/audit-reads', { query: { skip, limit } }),
  readModels: () => api.get<ReadModels>('/auth/admin/projections'),
  rebuild: (name: string) => api.post<RebuildStarted>(`/auth/admin/projections/${encodeURIComponent(name)}/rebuild`),
  verify: (name: string) => api.post<VerifyReport>(`/auth/admin/projections/${encodeURIComponent(name)}/verify`),
  connections: () => api.get<Connections>('/admin/connections'),
  builtinProfile: (model: string) => api.get<ModelProfileWire, ModelProfileQuery>('/admin/connections/profile', { query: { model } }),
  addEndpoint: (input: EndpointInput) => api.post<EndpointAdded, EndpointBody>('/admin/connections/models', { json: input }),
  changeEndpoint: (id: string, input: EndpointInput) => api.put<Connections, EndpointBody>(`/admin/connections/models/${encodeURIComponent(id)}`, { json: input }),
  removeEndpoint: (id: string) => api.delete<Connections>(`/admin/connections/models/${encodeURIComponent(id)}`),
  testEndpoint: (id: string) => api.post<ConnectionTestResult>(`/admin/connections/models/${encodeURIComponent(id)}/test`),
  setSearch: (url: string) => api.put<Connections, SearchConnectionBody>('/admin/connections/search', { json: { url } }),
  setSmtp: (input: SmtpConnectionBody) => api.put<Connections, SmtpConnectionBody>('/admin/connections/smtp', { json: input }),
  setSpeech: (input: SpeechConnectionBody) => api.put<Connections, SpeechConnectionBody>('/admin/connections/speech', { json: input }),
  clearConnection: (which: SingleConnection) => api.delete<Connections>(`/admin/connections/${which}`),
  testConnection: (which: SingleConnection) => api.post<ConnectionTestResult>(`/admin/connections/${which}/test`),
  outbox: (skip: number, limit: number) => api.get<OutboxPage, OutboxQuery>('/auth/admin/outbox', { query: { skip, limit } }),
};
