import type { Services } from '../../services.ts';
import { budgetCharger } from '../budget/charger.ts';
import { taskActions } from './actions.ts';
import { Reactor } from './reactor.ts';
import { TaskService } from './service.ts';

const started = new WeakMap<Services, Promise<Reactor>>();

/**
 * Starts the accounts' process managers (budget charges and task actions) for one role, once per
 * services: a second call returns the running one.
 */
export function startAccountReactors(services: Services): Promise<Reactor> {
  let reactor = started.get(services);
  if (!reactor) {
    const tasks = new TaskService({ commands: services.commands, clock: services.clock, timeZone: services.config.TIME_ZONE });
    const runner = new Reactor(services.events, services.readStore, [budgetCharger(services.budget, services.config.TIME_ZONE), taskActions(tasks)], services.log);
    reactor = runner.start().then(() => runner);
    started.set(services, reactor);
  }
  return reactor;
}
