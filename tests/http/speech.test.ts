import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { signUp, checkedFetch, startTestApp } from '../support/app.ts';

/** A stand-in for an OpenAI-compatible transcription server. */
function startAsr(): Promise<{ url: string; server: Server; requests: Array<{ path: string; auth?: string; body: string }> }> {
  const requests: Array<{ path: string; auth?: string; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk.toString('latin1')));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', ...(req.headers.authorization && { auth: req.headers.authorization }), body });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ text: ' 光伏产业的最新进展 ' }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, requests })));
}

const audioForm = () => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])], { type: 'audio/webm' }), 'voice.webm');
  form.append('language', 'zh');
  return form;
};

test('without a speech server the voice routes answer 501', async (t) => {
  const app = await startTestApp();
  try {
    // What the request logs: an unconfigured service is a refusal worth a line, not an error with a stack.
    const logged: Array<{ level: string; message: string }> = [];
    const record = (level: string) => (_fields: unknown, message: string) => void logged.push({ level, message });
    app.services.log.child = (() => ({ info: record('info'), warn: record('warn'), error: record('error'), debug: record('debug') })) as unknown as typeof app.services.log.child;
    const user = await signUp(app.url, 'mute');
    t.deepEqual((await user.request('GET', '/backend/conversation/api/v2/asr/status')).body, { configured: false }, 'the client is told not to offer voice');
    const response = await checkedFetch(`${app.url}/backend/conversation/api/v2/asr/short`, { method: 'POST', body: audioForm(), headers: { authorization: `Bearer ${user.token}` } });
    t.is(response.status, 501);
    t.deepEqual(logged.filter((line) => line.level === 'error'), []);
    t.true(logged.some((line) => line.level === 'info' && line.message === 'request refused'));
  } finally {
    await app.stop();
  }
});

test('voice is transcribed by the configured server and can become a question', async (t) => {
  const asr = await startAsr();
  const app = await startTestApp({ ASR_BASE_URL: asr.url, ASR_API_KEY: 'asr-key' });
  try {
    const user = await signUp(app.url, 'speaker');
    const headers = { authorization: `Bearer ${user.token}` };
    t.deepEqual((await user.request('GET', '/backend/conversation/api/v2/asr/status')).body, { configured: true });
    const short = await checkedFetch(`${app.url}/backend/conversation/api/v2/asr/short`, { method: 'POST', body: audioForm(), headers });
    t.is(short.status, 200);
    t.deepEqual(await short.json(), { success: true, text: '光伏产业的最新进展' });
    t.is(asr.requests[0]?.path, '/v1/audio/transcriptions');
    t.is(asr.requests[0]?.auth, 'Bearer asr-key');
    t.true(asr.requests[0]?.body.includes('whisper-1'));

    const { body } = await user.request('POST', '/backend/conversation/api/v2/research/create_session', { mode: 0 });
    const asked = await checkedFetch(`${app.url}/backend/conversation/api/v2/asr/short_to_question/${body.session_id}`, { method: 'POST', body: audioForm(), headers });
    t.is(asked.status, 200);
    const history = await user.request('GET', `/backend/conversation/sessions/${body.session_id}/messages`);
    t.is(history.body.messages[0].contents[0].content, '光伏产业的最新进展');

    const other = await signUp(app.url, 'eavesdropper');
    const refused = await checkedFetch(`${app.url}/backend/conversation/api/v2/asr/short_to_question/${body.session_id}`, { method: 'POST', body: audioForm(), headers: { authorization: `Bearer ${other.token}` } });
    t.is(refused.status, 404);
  } finally {
    await app.stop();
    asr.server.close();
  }
});
