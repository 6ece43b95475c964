import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import test from 'ava';
import { profileFor } from '../model/profile.ts';
import { probeModel, probeSmtp, probeSpeech } from './probe.ts';

async function listen(server: Server | ReturnType<typeof createHttpServer>, t: { teardown(fn: () => unknown): void }): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

const http = (handle: (request: IncomingMessage, response: ServerResponse) => void) => createHttpServer(handle);

test('a refused key is reported with the provider’s words, and the key it quotes is masked', async (t) => {
  const key = 'sk-echoed-SECRET-0123456789';
  const port = await listen(
    http((request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${request.headers.authorization?.slice(7)}`, type: 'invalid_request_error' } }));
    }),
    t,
  );
  const outcome = await probeModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'gpt-4o-mini', apiKey: key, profile: profileFor('gpt-4o-mini') });
  t.false(outcome.ok);
  t.true(outcome.detail.includes('401'), outcome.detail);
  t.true(outcome.detail.includes('Incorrect API key provided: ***'), outcome.detail);
  t.false(outcome.detail.includes('SECRET'));
});

test('speech lists its models; a refusal says its status', async (t) => {
  const port = await listen(
    http((request, response) => {
      if (request.headers.authorization !== 'Bearer asr-key-123456') {
        response.writeHead(401).end('{"error":"no"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'tts-1' }, { id: 'whisper-1' }] }));
    }),
    t,
  );
  const ok = await probeSpeech({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'whisper-1', apiKey: 'asr-key-123456' });
  t.like(ok, { ok: true, detail: '2 · whisper-1' });
  const refused = await probeSpeech({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'whisper-1', apiKey: 'wrong-key-000000' });
  t.false(refused.ok);
  t.true(refused.detail.startsWith('401'));
});

/** Just enough of an SMTP server for EHLO and AUTH PLAIN; records what it was told and never takes a mail. */
function smtpServer(password: string) {
  const said: string[] = [];
  const server = createTcpServer((socket) => {
    socket.write('220 test ESMTP\r\n');
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        said.push(line.split(' ')[0]!);
        if (/^EHLO/i.test(line)) socket.write('250-test\r\n250 AUTH PLAIN\r\n');
        else if (/^AUTH PLAIN/i.test(line)) {
          const [, user, pass] = Buffer.from(line.split(' ')[2] ?? '', 'base64').toString('utf8').split('\0');
          socket.write(user === 'mailer' && pass === password ? '235 ok\r\n' : '535 bad credentials\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('502 not here\r\n');
      }
    });
  });
  return { server, said };
}

test('SMTP is tested by EHLO and AUTH, and nothing is sent', async (t) => {
  const { server, said } = smtpServer('mail-pass');
  const port = await listen(server, t);
  const ok = await probeSmtp(`smtp://mailer@127.0.0.1:${port}`, 'mail-pass');
  t.true(ok.ok, ok.detail);
  t.true(said.includes('EHLO') && said.includes('AUTH'));
  t.false(said.includes('MAIL') || said.includes('DATA'), 'no mail was sent');
  const refused = await probeSmtp(`smtp://mailer@127.0.0.1:${port}`, 'wrong-pass');
  t.false(refused.ok);
  t.true(refused.detail.includes('535'), refused.detail);
});
