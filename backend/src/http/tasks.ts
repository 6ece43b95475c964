import Router from '@koa/router';
import { z } from 'zod';
import { COIN_BALANCES, DAILY_TASKS, dailyTasksId, newTaskItem, type CoinBalanceDoc, type DailyTaskItem, type DailyTasksDoc } from '@scriptorium/projections/tasks';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { activityDecider, activityStream } from '@scriptorium/domain/activity/activity';
import { publicTaskId, TASK_CATALOGUE } from '@scriptorium/domain/tasks/catalogue';
import { TaskService } from '@scriptorium/domain/tasks/service';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { parseBody, parseParams } from './validate.ts';
import { contract } from './contract.ts';
import { coinBalance, dailyTasksEnsured, REPORTABLE_ACTIONS, taskActionBody, taskActionResults, taskClaimed, taskSummary, taskTypes } from '@scriptorium/domain/protocol/http/tasks';

/** What the summary shows before the day's tasks are assigned: the catalogue, untouched. */
const unassigned = (): DailyTaskItem[] => TASK_CATALOGUE.map(newTaskItem);

/** Daily tasks, their rewards and the coin balance (a cognition view, which also counts, is in `cognition.ts`). */
export function taskRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const tasks = new TaskService({ commands: services.commands, clock: services.clock, timeZone: services.config.TIME_ZONE });

  async function summary(userId: string) {
    const day = tasks.today();
    const doc = await services.readStore.collection<DailyTasksDoc>(DAILY_TASKS).get(dailyTasksId(userId, day));
    // `task_type` (the catalogue's id, as in /api/tasks/types) lets a client word a task in its own
    // language; `name` and `description` stay the catalogue's Chinese, as the spec shows them.
    const items = (doc?.tasks ?? unassigned()).map((task) => ({ ...task, task_type: task.task_id, task_id: publicTaskId(task.task_id, day) }));
    return {
      date: day,
      completed_tasks_today: items.filter((task) => task.is_completed).length,
      total_tasks_available: items.length,
      total_coins_earned_today: items.filter((task) => task.rewards_claimed).reduce((sum, task) => sum + task.coin_reward, 0),
      tasks: items,
    };
  }

  router.get('/api/tasks/types', contract({ access: 'user', responses: { 200: taskTypes } }), async (ctx) => {
    await requireUser(services, ctx);
    ctx.body = {
      task_types: TASK_CATALOGUE.map((task) => ({
        task_type: task.taskId,
        name: task.name,
        description: task.description,
        action_type: task.actionType,
        target_progress: task.target,
        coin_reward: task.coins,
        reportable: (REPORTABLE_ACTIONS as readonly string[]).includes(task.actionType),
      })),
    };
  });

  router.post('/api/tasks/init', contract({ access: 'user', responses: { 200: taskSummary } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    await progress.waitFor((await tasks.ensureDaily(user.id)).position);
    ctx.body = await summary(user.id);
  });

  router.post('/api/tasks/ensure-daily', contract({ access: 'user', responses: { 200: dailyTasksEnsured } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const ensured = await tasks.ensureDaily(user.id);
    await progress.waitFor(ensured.position);
    ctx.body = { date: ensured.day, created: ensured.created, total_tasks: TASK_CATALOGUE.length };
  });

  router.get('/api/tasks/summary', contract({ access: 'user', responses: { 200: taskSummary } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    ctx.body = await summary(user.id);
  });

  /** The spec's answer is the list of results itself. */
  router.post('/api/tasks/action', contract({ access: 'user', body: taskActionBody, responses: { 200: taskActionResults } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, taskActionBody);
    if (body.action_type === 'page_view') {
      const day = tasks.today();
      const path = body.target_id.split('?')[0]!;
      const page = /^\/([a-z-]+)/.exec(path)?.[1] ?? 'home';
      const viewed = await services.commands.handle(activityDecider, activityStream(user.id, day), {
        type: 'RecordPageView',
        data: { userId: user.id, page, path, day },
        metadata: { now: services.clock(), userId: user.id },
      });
      await progress.waitFor(viewed.position);
      ctx.body = [];
      return;
    }
    const recorded = await tasks.recordAction(user.id, { actionType: body.action_type, targetType: body.target_type, targetId: body.target_id });
    await progress.waitFor(recorded.position);
    ctx.body = recorded.results;
  });

  const tasksClaimParams = z.object({ id: z.string().min(1).max(80) });
  router.post('/api/tasks/claim/:id', contract({ access: 'user', params: tasksClaimParams, responses: { 200: taskClaimed }, refusals: [409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, tasksClaimParams);
    const claimed = await tasks.claim(user.id, id);
    await progress.waitFor(claimed.position);
    ctx.body = { message: `领取成功，获得 ${claimed.coins} 认知币`, task_id: id, coins_earned: claimed.coins, balance: claimed.balance };
  });

  router.get('/api/coins/balance', contract({ access: 'user', responses: { 200: coinBalance } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const doc = await services.readStore.collection<CoinBalanceDoc>(COIN_BALANCES).get(user.id);
    ctx.body = { balance: doc?.balance ?? 0, total_earned: doc?.total_earned ?? 0, unit: 'cognition_coin' };
  });

  return router;
}
