import { completeAccounted, type AccountDeps } from '../usage/accounted.ts';
import type { ModelProvider } from '@scriptorium/infra/model/port';

/**
 * Rewrites a research question to be specific, as one accounted call (budget held, output capped to
 * the model's profile, usage recorded). Offline the question is only tidied, which costs nothing but
 * is refused alike once the budget is gone.
 */
export async function refineQuery(deps: AccountDeps, model: ModelProvider, userId: string, query: string): Promise<{ query: string; refined_query: string; offline: boolean }> {
  const tidy = query.replace(/\s+/g, ' ').trim();
  if (model.offline) {
    await deps.budget.ensureAvailable(userId);
    return { query, refined_query: tidy, offline: true };
  }
  const completion = await completeAccounted(deps, model, userId, `refine-${crypto.randomUUID()}`, {
    messages: [
      { role: 'system', content: '你是研究助理。把用户的问题改写成一个更清晰、具体、可检索的研究问题。只输出改写后的问题，不要解释。使用与用户相同的语言。' },
      { role: 'user', content: tidy },
    ],
    temperature: 0.2,
    maxTokens: 200,
  });
  return { query, refined_query: completion.text.trim() || tidy, offline: false };
}
