import test from 'ava';
import { client, startTestApp } from '../support/app.ts';

test('every response carries the browser security headers; only the artifact frame may be framed, and only by us', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  for (const path of ['/', '/share/artifact/abc', '/backend/auth/registration-settings']) {
    const { headers } = await client(app.url).request('GET', path);
    const csp = headers.get('content-security-policy') ?? '';
    t.regex(csp, /script-src 'self'(;|$)/, path);
    t.regex(csp, /frame-ancestors 'none'/, path);
    t.regex(csp, /object-src 'none'/, path);
    t.is(headers.get('x-content-type-options'), 'nosniff', path);
    t.is(headers.get('x-frame-options'), 'DENY', path);
    t.is(headers.get('referrer-policy'), 'strict-origin-when-cross-origin', path);
    t.is(headers.get('strict-transport-security'), null, 'no HSTS over plain HTTP');
  }
  const frame = await client(app.url).request('GET', '/backend/artifact-frame');
  t.is(frame.status, 200);
  t.regex(frame.headers.get('content-type') ?? '', /text\/html/);
  const frameCsp = frame.headers.get('content-security-policy') ?? '';
  t.regex(frameCsp, /(^|; )sandbox allow-scripts/, 'the artifact runs in an opaque origin even if opened directly');
  t.regex(frameCsp, /frame-ancestors 'self'/);
  t.is(frame.headers.get('x-frame-options'), 'SAMEORIGIN');
});

test('behind a trusted TLS proxy responses carry HSTS', async (t) => {
  const app = await startTestApp({ TRUST_PROXY: 'true' });
  t.teardown(() => app.stop());
  const secure = await client(app.url).request('GET', '/backend/auth/registration-settings', undefined, { headers: { 'x-forwarded-proto': 'https' } });
  t.regex(secure.headers.get('strict-transport-security') ?? '', /max-age=\d+/);
  const plain = await client(app.url).request('GET', '/backend/auth/registration-settings');
  t.is(plain.headers.get('strict-transport-security'), null);
});

test('/metrics answers only configured addresses or the metrics token', async (t) => {
  const app = await startTestApp({ METRICS_ALLOW: '192.0.2.10', METRICS_TOKEN: 'a-long-metrics-token-for-prometheus' });
  t.teardown(() => app.stop());
  const refused = await client(app.url).request('GET', '/metrics');
  t.is(refused.status, 403);
  t.like(refused.body, { code: 'auth.forbidden' });
  t.is((await client(app.url).request('GET', '/metrics', undefined, { headers: { authorization: 'Bearer wrong' } })).status, 403);
  const scraped = await client(app.url).request('GET', '/metrics', undefined, { headers: { authorization: 'Bearer a-long-metrics-token-for-prometheus' } });
  t.is(scraped.status, 200);
  t.regex(scraped.body, /eventstore_head_position/);
});

test('by default /metrics answers the machine itself', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  t.is((await client(app.url).request('GET', '/metrics')).status, 200);
});
