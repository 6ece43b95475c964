import { ConfigError } from '@scriptorium/infra/config/config';
import { OfflineProvider, type OfflineOptions } from './offline.ts';
import { OpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai.ts';
import type { ModelProvider } from './port.ts';

export * from './port.ts';
export * from './profile.ts';
export { OfflineProvider, composeOfflineAnswer, estimateTokens, type OfflineOptions } from './offline.ts';
export { OpenAICompatibleProvider, chatCompletionsUrl, type OpenAICompatibleOptions, type RetryInfo } from './openai.ts';

export interface ModelConfig {
  LLM_BASE_URL?: string | undefined;
  LLM_API_KEY?: string | undefined;
  LLM_MODEL?: string | undefined;
}

export interface ModelProviderTuning {
  openai?: Omit<OpenAICompatibleOptions, 'baseUrl' | 'apiKey' | 'model'>;
  offline?: OfflineOptions;
}

/**
 * The OpenAI-compatible client when `LLM_BASE_URL` is set, the offline engine otherwise. A model
 * or key without a URL is refused rather than ignored: silently answering offline would hide a typo.
 */
export function createModelProvider(config: ModelConfig, tuning: ModelProviderTuning = {}): ModelProvider {
  const baseUrl = config.LLM_BASE_URL?.trim();
  const model = config.LLM_MODEL?.trim();
  const apiKey = config.LLM_API_KEY?.trim();
  if (!baseUrl) {
    if (model) throw new ConfigError('LLM_BASE_URL', 'must be set when LLM_MODEL is set');
    if (apiKey) throw new ConfigError('LLM_BASE_URL', 'must be set when LLM_API_KEY is set');
    return new OfflineProvider(tuning.offline);
  }
  if (!model) throw new ConfigError('LLM_MODEL', 'must be set when LLM_BASE_URL is set (e.g. gpt-4o-mini, qwen2.5:7b)');
  return new OpenAICompatibleProvider({ ...tuning.openai, baseUrl, model, ...(apiKey ? { apiKey } : {}) });
}
