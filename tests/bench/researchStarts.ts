/**
 * Research starts in split roles (issue 31, item 2): an api, a projector and a worker, each a process
 * of its own on PostgreSQL + BullMQ/Redis, the model a mock on loopback. A start answers once the
 * projector has the new reply (read-your-writes, woken by the projector's NOTIFY), so its latency
 * is what concurrency would stretch. Measured in this run: the p50 of 5 lone starts (each after the
 * previous research ended), then the p50 of 20 starts sent at once; the ratio against the target
 * ≤ 1.5×. Every research is waited to its end (its questions answered), and each must complete.
 * Beside them, the CPU each role spent per start while the starts were in flight, and the same
 * measurement with the worker stopped meanwhile (a diagnostic: the starts without research runs).
 * Skipped, with the reason, without PostgreSQL and Redis.
 * Run: npx tsx tests/bench/researchStarts.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createScratchDatabase, postgresAnswers, postgresUrl } from '../contract/postgres.ts';
import { deleteKeys, redisAnswers, redisUrl } from '../contract/redis.ts';
import { signUp, type Client } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { scaleOutEnv, startRole, type RoleProcess } from '../support/product.ts';
import { straightResearch } from '../support/researchModel.ts';
import { CpuAccount } from './cpu.ts';
import { sized } from './short.ts';

const LONE = sized(5, 1);
const CONCURRENT = sized(20, 3);
const RUN_TIMEOUT_MS = 300_000;
const PROSE = '分布式系统中的每个角色都可以独立扩展，事件日志是唯一的事实来源。'.repeat(4);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const describeCpu = (spent: Record<string, number>, starts: number) =>
  `${Math.round(Object.values(spent).reduce((sum, ms) => sum + ms, 0) / starts)} ms per start (${Object.entries(spent)
    .map(([role, ms]) => `${role} ${Math.round(ms / starts)}`)
    .join(', ')})`;

interface Researcher {
  user: Client;
  sessionId: string;
}

/** One start: the time its request took to answer. */
async function start({ user, sessionId }: Researcher): Promise<number> {
  const started = performance.now();
  const answer = await user.request('POST', '/backend/conversation/research/start', { session_id: sessionId, message: '比较事件溯源系统中各个角色独立扩展的方式，写一份报告' });
  const ms = performance.now() - started;
  if (answer.status !== 200) throw new Error(`research/start: ${answer.status} ${JSON.stringify(answer.body)}`);
  return ms;
}

/**
 * Waits until every session's research has ended, answering as a user in a hurry would when it
 * waits: each clarification with its first option, a request for feedback with "satisfied". Throws
 * unless each reply completed.
 */
async function finished(researchers: Researcher[]): Promise<void> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const statuses = await Promise.all(researchers.map(({ user, sessionId }) => user.request('GET', `/backend/conversation/research/${sessionId}/status`)));
    if (statuses.every((status) => status.status === 200 && status.body.status === 'idle')) break;
    await Promise.all(
      researchers.map(async ({ user, sessionId }, index) => {
        if (statuses[index]!.body.status !== 'waiting') return;
        const { questions } = (await user.request('GET', `/backend/conversation/research/${sessionId}/pending_questions`)).body as { questions: Array<{ id: string; question_content: string; question_options: string[]; question_type: string }> };
        if (questions.length > 0) {
          const answers = questions.map((question) => ({ id: question.id, question: question.question_content, selectedOptions: question.question_options.slice(0, 1), textInput: '', question_type: question.question_type }));
          await user.request('POST', `/backend/conversation/research/${sessionId}/clarification_answer`, { answers });
        } else {
          await user.request('POST', `/backend/conversation/research/${sessionId}/feedback`, { option: 'satisfied' });
        }
      }),
    );
    if (Date.now() > deadline) throw new Error(`research runs did not end in time: ${statuses.map((status) => status.body.status).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const outcomes = await Promise.all(
    researchers.map(async ({ user, sessionId }) => ((await user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`)).body.messages as Array<{ role: string; status: string }>).find((message) => message.role !== 'user')?.status),
  );
  const failed = outcomes.filter((status) => status !== 'completed');
  if (failed.length > 0) throw new Error(`${failed.length} research runs did not complete: ${outcomes.join(', ')}`);
}

export async function run(): Promise<void> {
  const [postgresUp, redisUp] = await Promise.all([postgresAnswers(postgresUrl), redisAnswers(redisUrl)]);
  if (!postgresUp || !redisUp) {
    console.log(`research starts: skipped (${[!postgresUp && 'PostgreSQL (DATABASE_URL)', !redisUp && 'Redis (REDIS_URL)'].filter(Boolean).join(' and ')} not reachable)`);
    return;
  }
  const database = await createScratchDatabase(postgresUrl, 'starts');
  const prefix = `starts-${randomUUID().slice(0, 8)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-starts-'));
  const mock = await startMockOpenAI({ scenario: 'slow', delayMs: 2, reply: straightResearch({ description: '架构', queries: ['分布式 角色'] }, PROSE) });
  const env = {
    ...scaleOutEnv({ databaseUrl: database.url, redisUrl, queuePrefix: prefix, dataDir, modelUrl: mock.url, model: 'slow' }),
    REGISTER_MAX_PER_ADDRESS: '1000',
  };
  const processes: RoleProcess[] = [];
  try {
    // The projector first: it creates the read models' schema the others read.
    const projector = await startRole('projector', env);
    processes.push(projector);
    const api = await startRole('api', env);
    processes.push(api);
    const worker = await startRole('worker', env);
    processes.push(worker);
    const researcher = async (): Promise<Researcher> => {
      const user = await signUp(api.url!, `starts${randomUUID().slice(0, 8)}`);
      const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'bench-starts' })).body.session_id as string;
      return { user, sessionId };
    };
    const cpu = new CpuAccount({ api: api.child.pid!, projector: projector.child.pid!, worker: worker.child.pid! }, database);
    /**
     * Lone starts, then starts at once, each on sessions of its own. `stopWorker`: the worker is
     * stopped (SIGSTOP) while each start is in flight and continued once it answered, so that no
     * research runs beside the starts: a diagnostic of what the research runs cost them.
     */
    const round = async (stopWorker: boolean) => {
      const researchers: Researcher[] = [];
      for (let index = 0; index < LONE + CONCURRENT; index++) researchers.push(await researcher());
      const apart = async <T>(work: () => Promise<T>): Promise<T> => {
        if (stopWorker) worker.child.kill('SIGSTOP');
        try {
          return await work();
        } finally {
          if (stopWorker) worker.child.kill('SIGCONT');
        }
      };
      const lone: number[] = [];
      const loneCpu: Record<string, number> = {};
      for (const one of researchers.slice(0, LONE)) {
        await cpu.start();
        lone.push(await apart(() => start(one)));
        for (const [role, ms] of Object.entries(await cpu.spent())) loneCpu[role] = (loneCpu[role] ?? 0) + ms;
        await finished([one]);
      }
      const crowd = researchers.slice(LONE);
      await cpu.start();
      const together = await apart(() => Promise.all(crowd.map(start)));
      const crowdCpu = await cpu.spent();
      await finished(crowd);
      return { lone, loneCpu, together, crowdCpu };
    };

    const { lone, loneCpu, together, crowdCpu } = await round(false);
    const [loneP50, crowdP50] = [percentile(lone, 50), percentile(together, 50)];
    console.log(`research starts in split roles (api, projector, worker processes; PostgreSQL + Redis):`);
    console.log(`  lone start (baseline, ${LONE} in turn): p50 ${Math.round(loneP50)} ms`);
    console.log(`  ${CONCURRENT} starts at once: p50 ${Math.round(crowdP50)} ms, p95 ${Math.round(percentile(together, 95))} ms`);
    console.log(`  ratio ${(crowdP50 / loneP50).toFixed(2)}× (target ≤ 1.5×); every research ran to completion`);
    console.log(`  CPU from each start's request to its answer, lone: ${describeCpu(loneCpu, LONE)}`);
    console.log(`  CPU from the first request to the last answer, ${CONCURRENT} at once: ${describeCpu(crowdCpu, CONCURRENT)}`);

    const apart = await round(true);
    const [apartLoneP50, apartCrowdP50] = [percentile(apart.lone, 50), percentile(apart.together, 50)];
    console.log(`  diagnostic, the worker stopped while the starts are in flight (no research runs beside them):`);
    console.log(`    lone p50 ${Math.round(apartLoneP50)} ms, ${CONCURRENT} at once p50 ${Math.round(apartCrowdP50)} ms: ${(apartCrowdP50 / apartLoneP50).toFixed(2)}×`);
    console.log(`    CPU lone: ${describeCpu(apart.loneCpu, LONE)}; at once: ${describeCpu(apart.crowdCpu, CONCURRENT)}`);
  } finally {
    for (const role of processes) role.child.kill('SIGTERM');
    await Promise.all(processes.map((role) => role.exited));
    await mock.close();
    await database.drop();
    await deleteKeys(redisUrl, prefix);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
