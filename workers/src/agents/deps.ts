import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { BudgetGuard } from '@scriptorium/backend/domain/budget/guard';
import type { ModelProvider } from '../model/port.ts';

/** What every agent job is given: the log, the deciders' handler, the model and the budget. */
export interface AgentDeps {
  events: EventStore;
  commands: CommandHandler;
  model: ModelProvider;
  budget: BudgetGuard;
  log: Logger;
  clock: () => Date;
}
