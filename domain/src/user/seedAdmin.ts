import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { CommandMetadata } from '@scriptorium/infra/eventsourcing/decider';
import type { PasswordHasher } from '@scriptorium/infra/auth/passwords';
import { userDecider, userStream } from './decide.ts';
import { registerAccount, userIdFor } from './registration.ts';
import type { BudgetGuard } from '../budget/guard.ts';

/**
 * Makes the configured administrator exist with the configured password. Safe to run at every
 * start and from several processes: each step is a no-op once done.
 */
export async function seedAdmin(
  deps: { commands: CommandHandler; budget: BudgetGuard; passwords: PasswordHasher },
  admin: { username: string; password: string; email: string },
  metadata: CommandMetadata,
): Promise<'created' | 'updated' | 'unchanged'> {
  const { commands, passwords } = deps;
  const userId = userIdFor(admin.username);
  const { state } = await commands.load(userDecider, userStream(userId));
  if (state.status === 'unregistered') {
    await registerAccount(commands, { username: admin.username, email: admin.email, nickname: admin.username, passwordHash: await passwords.hash(admin.password), isAdmin: true }, metadata);
    // The administrator's group label and daily limit are the admin level's; later changes by hand stay.
    await deps.budget.run(userId, { type: 'SetLevel', data: { userId, today: deps.budget.today(), level: 'admin', membershipExpiresAt: null, dailyLimit: 'level_default', by: userId } }, { commandId: 'seed-admin-level' });
    return 'created';
  }
  let changed = false;
  if (!state.isAdmin) {
    await commands.handle(userDecider, userStream(userId), { type: 'GrantAdminRole', data: {}, metadata });
    changed = true;
  }
  if (!(await passwords.verify(state.passwordHash, admin.password))) {
    await commands.handle(userDecider, userStream(userId), { type: 'ChangePassword', data: { passwordHash: await passwords.hash(admin.password), reason: 'configured' }, metadata });
    changed = true;
  }
  return changed ? 'updated' : 'unchanged';
}
