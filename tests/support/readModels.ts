import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { createProjections } from '@scriptorium/projections/index';
import { eventually } from './poll.ts';

export const projections = () => createProjections({ timeZone: 'UTC' });

/** Every document of every read model and every checkpoint, in a stable order. */
export async function dump(store: ReadStore): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const projection of projections()) {
    for (const name of projection.collections) result[name] = await store.collection(name).find({}, { sort: { _id: 1 } });
    result[`checkpoint:${projection.name}`] = [await store.getCheckpoint(projection.name)];
  }
  return result;
}

/** Polls `check` every 200 ms until it holds, failing after `timeoutMs`: nothing here waits unbounded. */
export async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  await eventually(async () => ((await check()) ? true : undefined), timeoutMs, what, 200);
}
