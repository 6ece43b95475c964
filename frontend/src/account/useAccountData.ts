import { useCallback, useEffect, useState } from 'react';
import { toClientUser, type ClientUser } from '../api/user.ts';
import { accountApi, type CoinBalance, type TaskSummary, type TokenInfo } from './api.ts';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed' };

export interface AccountData {
  /** A fresh /auth/me: the auth store caches the user, and the verified flag may have changed since. */
  me: ClientUser | null;
  tokenInfo: Loaded<TokenInfo>;
  tasks: Loaded<TaskSummary>;
  coins: CoinBalance | null;
}

const settle = <T,>(result: PromiseSettledResult<T>): Loaded<T> => (result.status === 'fulfilled' ? { status: 'ready', value: result.value } : { status: 'failed' });

/** Token and task data for the signed-in dialog; each part fails on its own so one outage leaves the rest readable. */
export function useAccountData() {
  const [data, setData] = useState<AccountData>({ me: null, tokenInfo: { status: 'loading' }, tasks: { status: 'loading' }, coins: null });

  const reload = useCallback(async () => {
    const tasks = accountApi
      .ensureDailyTasks()
      .catch(() => undefined)
      .then(() => accountApi.taskSummary());
    const [me, tokenInfo, summary, coins] = await Promise.allSettled([accountApi.me(), accountApi.tokenInfo(), tasks, accountApi.coinBalance()]);
    setData({
      me: me.status === 'fulfilled' ? toClientUser(me.value) : null,
      tokenInfo: settle(tokenInfo),
      tasks: settle(summary),
      coins: coins.status === 'fulfilled' ? coins.value : null,
    });
  }, []);

  const reloadTasks = useCallback(async () => {
    const [summary, coins] = await Promise.allSettled([accountApi.taskSummary(), accountApi.coinBalance()]);
    setData((current) => ({ ...current, tasks: summary.status === 'fulfilled' ? settle(summary) : current.tasks, coins: coins.status === 'fulfilled' ? coins.value : current.coins }));
  }, []);

  const markVerified = useCallback(() => setData((current) => (current.me ? { ...current, me: { ...current.me, email_verified: true } } : current)), []);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, reload, reloadTasks, markVerified };
}
