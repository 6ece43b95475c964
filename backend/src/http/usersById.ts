import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { USERS, type UserDoc } from '@scriptorium/projections/users';

/** The users a page names, read in one query: lists show whose each row is without a read per row. */
export async function usersById(readStore: Pick<ReadStore, 'collection'>, userIds: Iterable<string>): Promise<Map<string, UserDoc>> {
  const ids = [...new Set(userIds)];
  const users = ids.length === 0 ? [] : await readStore.collection<UserDoc>(USERS).find({ _id: { $in: ids } });
  return new Map(users.map((user) => [user._id, user]));
}
