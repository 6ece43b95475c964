import { z } from 'zod';

/**
 * How a model's server sends its reasoning, when it reasons: in `reasoning_content` deltas beside
 * the content (DeepSeek-R1's API, vLLM with a reasoning parser), inline as `<think>…</think>` in the
 * content (Qwen3 or R1 served without a parser), or not at all. Either way none of it is an answer.
 */
export const REASONING_FORMATS = ['none', 'reasoning_content', 'think_tags'] as const;
export type ReasoningFormat = (typeof REASONING_FORMATS)[number];

/** What a model can take and give: every call's prompt must fit the window and its answer the cap. */
export interface ModelProfile {
  /** Tokens of prompt and answer together. */
  contextWindow: number;
  /** The most `max_tokens` the provider accepts for this model. */
  maxOutputTokens: number;
  reasoning: ReasoningFormat;
  /** Optional list price, per million tokens, for cost figures; never used to refuse a call. */
  price?: { promptPerMillion: number; completionPerMillion: number; currency: string };
}

export const modelProfileSchema = z.object({
  contextWindow: z.number().int().min(1024).max(10_000_000),
  maxOutputTokens: z.number().int().min(16).max(1_000_000),
  reasoning: z.enum(REASONING_FORMATS),
  price: z.object({ promptPerMillion: z.number().min(0), completionPerMillion: z.number().min(0), currency: z.string().min(1).max(8) }).optional(),
});

/** A profile override as configured: any field, the rest from the family or the default. */
export const modelProfileOverrideSchema = modelProfileSchema.partial();
export type ModelProfileOverride = z.infer<typeof modelProfileOverrideSchema>;

/**
 * The jobs a model can be given. Research may put planning and judging on a fast model and writing
 * on a strong one; `summarising` writes the summary at the head of a report (the sections are
 * `writing`'s); `default` serves every role that has no model of its own (and the
 * chat, the engineer and every other agent).
 */
export const MODEL_ROLES = ['default', 'planning', 'judging', 'summarising', 'writing'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** For a model nobody described: small enough for any server we know of to accept. */
export const DEFAULT_PROFILE: ModelProfile = { contextWindow: 32_768, maxOutputTokens: 4_096, reasoning: 'none' };

/**
 * The common families, matched on the model name as servers spell it (a prefix such as `qwen/` or an
 * Ollama tag such as `:14b` does not matter). First match wins, so specific names precede families.
 * Figures are the providers' published limits, rounded down where they differ between versions.
 */
const FAMILIES: Array<{ pattern: RegExp; profile: ModelProfile }> = [
  { pattern: /deepseek-(reasoner|r1)/i, profile: { contextWindow: 65_536, maxOutputTokens: 8_192, reasoning: 'reasoning_content' } },
  { pattern: /deepseek/i, profile: { contextWindow: 65_536, maxOutputTokens: 8_192, reasoning: 'none' } },
  { pattern: /qwq|qwen3/i, profile: { contextWindow: 32_768, maxOutputTokens: 8_192, reasoning: 'think_tags' } },
  { pattern: /qwen-(max|plus|turbo|long)/i, profile: { contextWindow: 32_768, maxOutputTokens: 8_192, reasoning: 'none' } },
  { pattern: /qwen/i, profile: { contextWindow: 32_768, maxOutputTokens: 8_192, reasoning: 'none' } },
  { pattern: /gpt-5/i, profile: { contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: 'none' } },
  { pattern: /gpt-4\.1/i, profile: { contextWindow: 1_047_576, maxOutputTokens: 32_768, reasoning: 'none' } },
  { pattern: /gpt-4o/i, profile: { contextWindow: 128_000, maxOutputTokens: 16_384, reasoning: 'none' } },
  { pattern: /llama-?3\.[1-3]|llama3\.[1-3]/i, profile: { contextWindow: 131_072, maxOutputTokens: 4_096, reasoning: 'none' } },
  { pattern: /llama/i, profile: { contextWindow: 8_192, maxOutputTokens: 2_048, reasoning: 'none' } },
];

/** The profile of `model`: its family's, else the default, with the configured override on top. */
export function profileFor(model: string, override: ModelProfileOverride = {}): ModelProfile {
  const base = FAMILIES.find((family) => family.pattern.test(model))?.profile ?? DEFAULT_PROFILE;
  const merged = { ...base, ...Object.fromEntries(Object.entries(override).filter(([, value]) => value !== undefined)) } as ModelProfile;
  return { ...merged, maxOutputTokens: Math.min(merged.maxOutputTokens, merged.contextWindow) };
}
