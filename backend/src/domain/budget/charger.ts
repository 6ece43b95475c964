import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { dayKey } from '@scriptorium/infra/time';
import type { CognitionExtractionFinished } from '../cognition/extraction.ts';
import type { AgentReplyCompleted, TokensConsumed } from '../conversation/conversation.ts';
import type { Reaction } from '../tasks/reactor.ts';
import type { BudgetGuard } from './guard.ts';

/**
 * Settles spends: every `TokensConsumed` is charged to its user's budget on the day it was
 * consumed, and a completed reply (or cognition extraction) releases what its calls still held. The charge id is the
 * event's id, so a replayed event is charged once.
 */
export function budgetCharger(budget: BudgetGuard, timeZone: string): Reaction {
  return {
    name: 'budget-charges',
    handles: ['TokensConsumed', 'AgentReplyCompleted', 'CognitionExtractionFinished'],
    async react(event: RecordedEvent) {
      if (event.type === 'TokensConsumed') {
        const { userId, sessionId, messageId, prompt, completion, at } = event.data as TokensConsumed['data'];
        await budget.run(
          userId,
          {
            type: 'ChargeTokens',
            data: { userId, today: dayKey(at, timeZone), chargeId: event.id, sessionId, messageId, tokens: prompt + completion, tokensPerCoin: budget.tokensPerCoin },
          },
          { commandId: `charge:${event.id}` },
        );
        return;
      }
      const { messageId, userId } =
        event.type === 'CognitionExtractionFinished'
          ? { messageId: (event.data as CognitionExtractionFinished['data']).extractionId, userId: (event.data as CognitionExtractionFinished['data']).userId }
          : { messageId: (event.data as AgentReplyCompleted['data']).messageId, userId: event.metadata.userId };
      if (!userId) return;
      await budget.run(userId, { type: 'ReleaseHolds', data: { userId, today: budget.today(), messageId } }, { commandId: `release:${event.id}` });
    },
  };
}
