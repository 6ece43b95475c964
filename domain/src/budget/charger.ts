import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { dayKey } from '@scriptorium/infra/time';
import type { CognitionExtractionFinished } from '../cognition/extraction.ts';
import type { AgentReplyCompleted, TokensConsumed } from '../conversation/conversation.ts';
import type { ModelCallFinished } from '../usage/call.ts';
import type { Reaction } from '@scriptorium/infra/eventsourcing/reactor';
import type { BudgetGuard } from './guard.ts';

/** The call (reply, extraction, api call) whose end releases what its holds still keep. */
function finishedCall(event: RecordedEvent): { messageId: string; userId: string | undefined } {
  switch (event.type) {
    case 'CognitionExtractionFinished': {
      const data = event.data as CognitionExtractionFinished['data'];
      return { messageId: data.extractionId, userId: data.userId };
    }
    case 'ModelCallFinished': {
      const data = event.data as ModelCallFinished['data'];
      return { messageId: data.callId, userId: data.userId };
    }
    default:
      return { messageId: (event.data as AgentReplyCompleted['data']).messageId, userId: event.metadata.userId };
  }
}

/**
 * Settles spends: every `TokensConsumed` is charged to its user's budget on the day it was
 * consumed, and a finished reply, cognition extraction or api call releases what its calls still
 * held. The charge id is the event's id, so a replayed event is charged once.
 */
export function budgetCharger(budget: BudgetGuard, timeZone: string): Reaction {
  return {
    name: 'budget-charges',
    handles: ['TokensConsumed', 'AgentReplyCompleted', 'CognitionExtractionFinished', 'ModelCallFinished'],
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
      const { messageId, userId } = finishedCall(event);
      if (!userId) return;
      await budget.run(userId, { type: 'ReleaseHolds', data: { userId, today: budget.today(), messageId } }, { commandId: `release:${event.id}` });
    },
  };
}
