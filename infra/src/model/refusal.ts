import { ModelError } from './port.ts';

/**
 * Why a provider refused a request, read from its own words: the prompt (with the answer asked for)
 * is over the model's context window, the `max_tokens` asked for is over its output cap, or
 * something else about the request (an unknown model, a parameter it does not take).
 */
export type RefusalReason = 'context_window' | 'output_cap' | 'other';

// OpenAI "max_tokens is too large: 999993734. This model supports at most 16384 completion tokens",
// DeepSeek "Invalid max_tokens value, the valid range of max_tokens is [1, 8192]", vLLM "'max_tokens'
// or 'max_completion_tokens' is too large" / "must be less than or equal to", DashScope "Range of
// max_tokens should be [1, 8192]".
const outputCap = /max_(?:completion_)?tokens|max_new_tokens|completion tokens/i;
const outputCapVerdict = /too large|valid range|range of|less than or equal|at most|exceed|invalid|should be/i;
// OpenAI and vLLM "This model's maximum context length is 32768 tokens. However, you requested …",
// DashScope "Range of input length should be [1, 30720]", others "prompt is too long", "context window".
const contextWindow = /context length|context window|context_length_exceeded|maximum context|prompt is too long|input length|too many tokens|reduce the length/i;

export function refusalReason(providerMessage: string | undefined): RefusalReason {
  if (!providerMessage) return 'other';
  if (outputCap.test(providerMessage) && outputCapVerdict.test(providerMessage)) return 'output_cap';
  if (contextWindow.test(providerMessage)) return 'context_window';
  return 'other';
}

/** The reason of a `refused` ModelError; undefined for anything else. */
export function refusalOf(error: unknown): RefusalReason | undefined {
  if (!(error instanceof ModelError) || error.kind !== 'refused') return undefined;
  return refusalReason(error.providerMessage);
}
