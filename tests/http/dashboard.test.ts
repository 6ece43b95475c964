import test from 'ava';
import { seriesDays } from '@scriptorium/backend/http/dashboard';
import { client, signInAdmin, signUp, startTestApp } from '../support/app.ts';
import { BATTERY_NOTES, cognitionFromNotes } from '../support/cognition.ts';

test('the series covers fourteen calendar days ending today, across a daylight-saving change', (t) => {
  const days = seriesDays(new Date('2026-03-10T12:00:00Z'), 'America/New_York');
  t.is(days.length, 14);
  t.is(days[0], '2026-02-25');
  t.is(days[13], '2026-03-10');
  t.is(new Set(days).size, 14);
});

test('the dashboard counts users, conversations, content and tokens, for admins only', async (t) => {
  const app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'counted');
  await user.request('POST', '/backend/conversation/sessions', { client_id: 'dash' });
  const id = await cognitionFromNotes(user, BATTERY_NOTES);
  await user.request('PATCH', `/backend/api/cognition/${id}`, { public: true });
  for (const path of ['/note', '/note', '/cognition/display?id=x']) {
    const viewed = await user.request('POST', '/backend/api/tasks/action', { action_type: 'page_view', target_id: path, target_type: 'page' });
    t.deepEqual(viewed.body, [], 'a page view is recorded, and is no task action');
  }
  await app.settle();
  const admin = await signInAdmin(app.url);
  const dashboard = await admin.request('GET', '/backend/auth/admin/dashboard');
  t.is(dashboard.status, 200);
  t.like(dashboard.body, {
    users: { total: 2, active: 2, admins: 1, new_24h: 2 },
    conversations: { total: 1 },
    content: { notes: 2, cognitions: 1, public_cognitions: 1, trajectories: 0 },
  });
  t.like(dashboard.body.activity, { page_views_today: 2, visitors_today: 1, pages_today: { note: 1, cognition: 1 } });
  t.is(dashboard.body.tokens.series.length, 14);
  t.true(dashboard.body.tokens.today > 0, 'the extraction’s usage is counted today');
  t.is(dashboard.body.tokens.active_users_today, 1);
  t.is((await user.request('GET', '/backend/auth/admin/dashboard')).status, 403);
  t.is((await client(app.url).request('GET', '/backend/auth/admin/dashboard')).status, 401);
});

test('the dashboard counts the conversation links that still open: not a revoked, expired or file link', async (t) => {
  const app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'sharer');
  const { body: session } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'dash-share' });
  const share = async (expires_days: number | null) => (await user.request('POST', '/backend/conversation/sessions/share', { session_id: session.session_id, expires_days })).body.share_id as string;
  const [kept, revoked] = [await share(null), await share(null)];
  await share(7);
  t.is((await user.request('DELETE', `/backend/conversation/share/${revoked}`)).status, 200);
  const admin = await signInAdmin(app.url);
  const shared = async () => (await admin.request('GET', '/backend/auth/admin/dashboard')).body.conversations.shared;
  t.is(await shared(), 2, 'the revoked link is not counted');

  const listed = await user.request('GET', `/backend/conversation/api/research/share/${session.session_id}`);
  const link = (id: string) => listed.body.shares.find((candidate: { share_id: string }) => candidate.share_id === id);
  t.like(link(kept), { open: true, revoked: false, include_private: false, expires_at: null });
  t.like(link(revoked), { open: false, revoked: true });

  const realClock = app.services.clock;
  app.services.clock = () => new Date(Date.now() + 8 * 86_400_000);
  t.teardown(() => {
    app.services.clock = realClock;
  });
  t.is(await shared(), 1, 'the expired link is not counted');
});
