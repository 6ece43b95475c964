/**
 * Auditors in a real browser: an admin makes a user an auditor on /manage; the auditor opens /audit,
 * finds another user's research session, scrubs to before the second canvas version, compares v1
 * and v2 and exports the stream as JSONL. Screenshots in zh and en. Serves frontend/dist: run
 * `npm run build` first.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { Corpus, SOLID_STATE } from '@scriptorium/workers/agents/deep_cognition/harness';
import { downloaded, screenshot, signedInPage, startBrowser } from '../support/browser.ts';
import { client, signInAdmin, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { startResearch, watchedSession } from '../support/research.ts';

let app: TestApp;
let browser: Browser;
let adminToken: string;
let sessionId: string;

const arrives = (replyId: string, type: string, nth = 1) => {
  let seen = 0;
  return (m: any) => m.type === 'message' && m.content.message_id === replyId && m.content.content_type === type && ++seen === nth;
};

test.before(async () => {
  const corpus = new Corpus([...SOLID_STATE]);
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' }, { agents: { webSearch: corpus, localSearch: corpus, fetcher: corpus } });
  browser = await startBrowser();
  adminToken = (await signInAdmin(app.url)).token!;
  const writer = await signUp(app.url, 'writer');
  const watched = await watchedSession(app.url, writer, 'client-writer');
  sessionId = watched.sessionId;
  const { replyId } = await startResearch(writer, watched.socket, sessionId, '对比2020年以来中国固态电池的技术路线和产业化进展，写一份决策参考报告');
  await watched.socket.next(arrives(replyId, 'feedback_request'), 60_000);
  await writer.request('POST', `/backend/conversation/research/${sessionId}/feedback`, { option: 'manual_feedback', text: '补充固态电池成本方面的内容' });
  await watched.socket.next(arrives(replyId, 'feedback_request', 2), 60_000);
  watched.socket.close();
  await app.settle();
});
test.after.always(async () => {
  await browser?.close();
  await app?.stop();
});

const TEXTS = {
  zh: { open: '打开', search: '搜索', jsonl: '导出 JSONL', scrub: '回放位置', diff: '版本对比', version: '版本 1' },
  en: { open: 'Open', search: 'Search', jsonl: 'Export JSONL', scrub: 'Replay position', diff: 'Compare versions', version: 'Version 1' },
} as const;

for (const language of ['zh', 'en'] as const) {
  test.serial(`an admin makes a user an auditor, who replays another user's session (${language})`, async (t) => {
    const text = TEXTS[language];
    const name = `inspector-${language}`;
    const inspector = await signUp(app.url, name);

    const admin = await signedInPage(t, browser, adminToken);
    await admin.page.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    await admin.page.goto(`${app.url}/manage?tab=users`, { waitUntil: 'networkidle' });
    await admin.page.getByLabel(language === 'zh' ? `设为审计员：${name}` : `Make ${name} an auditor`).click({ force: true }); // the switch's track covers its checkbox, as a switch does
    await admin.page.getByLabel(language === 'zh' ? `取消审计员：${name}` : `Revoke auditor role of ${name}`).waitFor();
    await screenshot(admin.page, `audit-grant-${language}`);

    const { page, pageErrors } = await signedInPage(t, browser, inspector.token!, { acceptDownloads: true });
    await page.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    await page.goto(`${app.url}/audit`, { waitUntil: 'networkidle' });
    await page.getByLabel(language === 'zh' ? '用户名' : 'User name').fill('writer');
    await page.getByRole('button', { name: text.search, exact: true }).click();
    await page.getByRole('button', { name: new RegExp(`^${text.open}`) }).first().click();
    await page.getByText(`conversation-${sessionId}`).first().waitFor();
    const rows = await app.services.events.readStream(`conversation-${sessionId}`);
    await page.getByText(language === 'zh' ? `已载入 ${rows.length} / ${rows.length} 个事件` : `${rows.length} of ${rows.length} events loaded`).waitFor();

    // Before the second version starts: one version on the canvas.
    const secondStart = rows.filter((row) => row.type === 'WritingStarted')[1]!;
    const slider = page.getByLabel(text.scrub);
    await slider.fill(String(secondStart.revision));
    await page.locator('.audit-canvas .mini-badge', { hasText: text.version }).waitFor();
    await screenshot(page, `audit-scrubbed-${language}`);

    // The plan panel shows the plan as it stood at each position: steps done, the one in progress.
    const firstWriting = rows.find((row) => row.type === 'WritingStarted')!;
    const marks = rows.filter((row) => row.type === 'PlanStepMarked' && row.revision < firstWriting.revision);
    for (const mark of [marks[0]!, marks[1]!, marks.at(-1)!]) {
      const { index, steps } = mark.data as { index: number; steps: string[] };
      await slider.fill(String(mark.revision + 1));
      const plan = page.locator('.audit-canvas .plan-steps');
      await plan.locator(index < steps.length ? `.plan-step:nth-child(${index + 1}).in_progress` : `.plan-step:nth-child(${steps.length}).completed`).waitFor();
      t.is(await plan.locator('.plan-step.completed').count(), index, `${index} of ${steps.length} steps completed at ${mark.revision + 1}`);
      t.is(await plan.locator('.plan-step.in_progress').count(), index < steps.length ? 1 : 0);
      if (mark === marks[1]) await screenshot(page, `audit-plan-${language}`);
    }
    await slider.fill(String(secondStart.revision));
    await page.locator('.audit-canvas .mini-badge', { hasText: text.version }).waitFor();

    await page.getByRole('region', { name: text.diff }).waitFor();
    const diffText = page.locator('.audit-diff-text');
    t.true((await diffText.locator('ins').count()) > 0, 'v2 adds to v1');
    await diffText.scrollIntoViewIfNeeded();
    await screenshot(page, `audit-diff-${language}`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: text.jsonl }).click()]);
    const lines = (await downloaded(download)).toString('utf8').trim().split('\n');
    t.is(lines.length, rows.length);
    t.is(JSON.parse(lines[0]!).streamId, `conversation-${sessionId}`);
    t.deepEqual(pageErrors, []);

    const reads = await client(app.url, adminToken).request('GET', `/backend/auth/admin/audit-reads?auditor_id=${inspector.userId}`);
    t.true(reads.body.reads.some((read: { action: string }) => read.action === 'export'));
    t.true(reads.body.reads.some((read: { action: string; stream_id: string }) => read.action === 'events' && read.stream_id === `conversation-${sessionId}`));
  });
}

test.serial("another kind of stream (a user's) shows each event's recorded data beside the timeline, and names who acted", async (t) => {
  const inspector = await signUp(app.url, 'inspector-streams');
  const granted = await client(app.url, adminToken).request('POST', `/backend/auth/admin/users/${inspector.userId}/auditor`, { auditor: true });
  t.is(granted.status, 200);
  const { page, pageErrors } = await signedInPage(t, browser, inspector.token!);
  await page.goto(`${app.url}/audit`, { waitUntil: 'networkidle' });
  await page.getByLabel('用户名').fill('writer');
  await page.getByRole('button', { name: '搜索', exact: true }).click();
  await page.getByRole('button', { name: '打开 writer', exact: true }).click();
  const detail = page.getByRole('region', { name: '事件内容' });
  await detail.getByText('在时间线上选择一个事件').waitFor();
  await page.locator('.audit-row button').first().click();
  await detail.locator('.audit-event-data', { hasText: '"username": "writer"' }).waitFor();
  await screenshot(page, 'audit-user-stream');

  // In the research session the writer's own events name them.
  await page.getByRole('button', { name: /^打开 (?!writer$)/ }).first().click();
  await page.getByText(`conversation-${sessionId}`).first().waitFor();
  await page.locator('.audit-row', { hasText: 'UserMessagePosted' }).first().waitFor();
  t.regex(await page.locator('.audit-row', { hasText: 'UserMessagePosted' }).first().innerText(), /writer/, 'the actor by name');
  t.deepEqual(pageErrors, []);
});

/** A long research session: one question and a reply streamed in this many pieces (plus the framing events). */
const LONG_SESSION_EVENTS = 50_000;

test.serial('a session of 50,000 events loads page by page, scrubs to its middle and shows the view there; the page stays responsive', async (t) => {
  const owner = await signUp(app.url, 'longwriter');
  const sessionId = randomUUID();
  const stream = `conversation-${sessionId}`;
  const at = new Date().toISOString();
  const metadata = { at, userId: owner.userId };
  const base = { sessionId, agent: 'deep_cognition' as const };
  const framing = [
    { type: 'SessionCreated', data: { sessionId, ownerId: owner.userId, clientId: 'client-long', name: '长会话', collaborationMode: 0, searchEnabled: true, layoutPreset: 'default', createdAt: at } },
    { type: 'UserMessagePosted', data: { ...base, messageId: 'q1', content: '写一份很长的回答', at } },
    { type: 'AgentReplyStarted', data: { ...base, messageId: 'a1', replyTo: 'q1', jobId: 'job-long', at } },
  ];
  const pieces = LONG_SESSION_EVENTS - framing.length - 1;
  const piece = (seq: number) => ({ type: 'MessageChunksAppended', data: { ...base, messageId: 'a1', contentType: 'chat_chunk', seq, text: `第${seq}段。` } });
  await app.services.events.appendToStream(stream, framing.map((event) => ({ ...event, metadata })), { expectedRevision: 'no_stream' });
  for (let seq = 0; seq < pieces; seq += 5000) {
    const batch = Array.from({ length: Math.min(5000, pieces - seq) }, (_, offset) => ({ ...piece(seq + offset), metadata }));
    await app.services.events.appendToStream(stream, batch);
  }
  await app.services.events.appendToStream(stream, [{ type: 'AgentReplyCompleted', data: { ...base, messageId: 'a1', outcome: 'completed', at }, metadata }]);
  t.is((await app.services.events.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]!.revision, LONG_SESSION_EVENTS - 1);

  const { page, pageErrors } = await signedInPage(t, browser, adminToken);
  // Long tasks are what a user feels as a frozen page: record them for the log (no threshold here; benchmarks hold timings).
  await page.addInitScript(() => {
    (window as unknown as { longTasks: number[] }).longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) (window as unknown as { longTasks: number[] }).longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${app.url}/audit`, { waitUntil: 'networkidle' });
  await page.getByLabel('用户名').fill('longwriter');
  await page.getByRole('button', { name: '搜索', exact: true }).click();
  await page.getByRole('button', { name: /^打开/ }).first().click();
  // The title the session gets from its first question is one more event of the stream.
  const events = await app.services.events.readStream(stream);
  t.true(events.length >= LONG_SESSION_EVENTS);
  await page.getByText(`已载入 ${events.length} / ${events.length} 个事件`).waitFor();

  const middle = LONG_SESSION_EVENTS / 2;
  const shownPieces = events.slice(0, middle).filter((event) => event.type === 'MessageChunksAppended');
  const lastPiece = (shownPieces.at(-1)!.data as { seq: number }).seq;
  await page.getByLabel('回放位置').fill(String(middle));
  await page.locator('.audit-chat').getByText(new RegExp(`第${lastPiece}段。$`)).waitFor();
  t.is(await page.locator('.audit-chat').getByText(`第${lastPiece + 1}段。`).count(), 0, 'nothing after the position is shown');
  await page.locator('.audit-timeline [aria-current="step"]').waitFor();
  t.is(await page.locator('.audit-timeline [aria-current="step"]').getAttribute('aria-label'), `回放到事件 ${middle - 1}（${events[middle - 1]!.type}）`, 'the timeline follows the position');
  await screenshot(page, 'audit-long-session');
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  t.log(`50,000 events: ${longTasks.length} long tasks, the longest ${Math.round(Math.max(0, ...longTasks))} ms`);
  t.deepEqual(pageErrors, []);
});
