import { ConfigError } from '@scriptorium/infra/config/config';
import { OfflineProvider, type OfflineOptions } from './offline.ts';
import { OpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai.ts';
import type { ModelEndpoint, ModelProvider } from './port.ts';
import { profileFor, type ModelProfileOverride, type ModelRole } from './profile.ts';

export * from './port.ts';
export * from './profile.ts';
export { OfflineProvider, composeOfflineAnswer, estimateTokens, type OfflineOptions } from './offline.ts';
export { OpenAICompatibleProvider, chatCompletionsUrl, type OpenAICompatibleOptions, type RetryInfo } from './openai.ts';
export { ReasoningFilter } from './reasoning.ts';
export { refusalOf, refusalReason, type RefusalReason } from './refusal.ts';
export { fitToWindow, measurePrompt, type Fitted, type WindowCuts } from './window.ts';

export interface ModelConfig {
  LLM_BASE_URL?: string | undefined;
  LLM_API_KEY?: string | undefined;
  LLM_MODEL?: string | undefined;
  /** LLM_MODEL's profile where its family's is wrong. */
  LLM_PROFILE?: ModelProfileOverride | undefined;
  /** Other models of the same endpoint for some roles. */
  LLM_ROLE_MODELS?: Partial<Record<ModelRole, string>> | undefined;
}

export interface ModelProviderTuning {
  openai?: Omit<OpenAICompatibleOptions, 'baseUrl' | 'apiKey' | 'model' | 'profile'>;
  offline?: OfflineOptions;
}

/**
 * The client of one configured endpoint, its profile the model family's with the endpoint's
 * override on top. The connections an administrator sets build their providers with it too.
 */
export function providerFor(endpoint: Pick<ModelEndpoint, 'baseUrl' | 'apiKey' | 'model' | 'profile'>, tuning: ModelProviderTuning['openai'] = {}): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    ...tuning,
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    profile: profileFor(endpoint.model, endpoint.profile),
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
  });
}

/**
 * The environment's model settings, trimmed and checked together. A model, key, profile or role
 * models without a URL are refused rather than ignored: silently answering offline would hide a typo.
 * `null` when no model is configured.
 */
export function modelEnvironment(config: ModelConfig): { baseUrl: string; model: string; apiKey?: string } | null {
  const baseUrl = config.LLM_BASE_URL?.trim();
  const model = config.LLM_MODEL?.trim();
  const apiKey = config.LLM_API_KEY?.trim();
  if (!baseUrl) {
    if (model) throw new ConfigError('LLM_BASE_URL', 'must be set when LLM_MODEL is set');
    if (apiKey) throw new ConfigError('LLM_BASE_URL', 'must be set when LLM_API_KEY is set');
    if (config.LLM_PROFILE) throw new ConfigError('LLM_BASE_URL', 'must be set when LLM_PROFILE is set');
    if (config.LLM_ROLE_MODELS) throw new ConfigError('LLM_BASE_URL', 'must be set when LLM_ROLE_MODELS is set: the roles’ models are served by the same endpoint');
    return null;
  }
  if (!model) throw new ConfigError('LLM_MODEL', 'must be set when LLM_BASE_URL is set (e.g. gpt-4o-mini, qwen2.5:7b)');
  return { baseUrl, model, ...(apiKey && { apiKey }) };
}

/** The OpenAI-compatible client when `LLM_BASE_URL` is set, the offline engine otherwise. */
export function createModelProvider(config: ModelConfig, tuning: ModelProviderTuning = {}): ModelProvider {
  const configured = modelEnvironment(config);
  if (!configured) return new OfflineProvider(tuning.offline);
  return providerFor({ ...configured, ...(config.LLM_PROFILE && { profile: config.LLM_PROFILE }) }, tuning.openai);
}
