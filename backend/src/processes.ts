import type { Services } from './services.ts';
import { budgetCharger } from '@scriptorium/domain/budget/charger';
import { jobDispatch } from '@scriptorium/domain/jobs/dispatch';
import { taskActions } from '@scriptorium/domain/tasks/actions';
import { TaskService } from '@scriptorium/domain/tasks/service';
import { Reactor } from '@scriptorium/infra/eventsourcing/reactor';

const started = new WeakMap<Services, Promise<Reactor>>();

/**
 * Starts the process managers (agent job dispatch, budget charges, task actions) for one role, once
 * per services: a second call returns the running one.
 */
export function startProcessManagers(services: Services): Promise<Reactor> {
  let reactor = started.get(services);
  if (!reactor) {
    const tasks = new TaskService({ commands: services.commands, clock: services.clock, timeZone: services.config.TIME_ZONE });
    const reactions = [jobDispatch(services), budgetCharger(services.budget, services.config.TIME_ZONE), taskActions(tasks, services.commands)];
    const runner = new Reactor(services.events, services.readStore, reactions, services.log);
    reactor = runner.start().then(() => runner);
    started.set(services, reactor);
  }
  return reactor;
}
