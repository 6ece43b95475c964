import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { signUp, checkedFetch, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

type User = Awaited<ReturnType<typeof signUp>>;
const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));

async function send(user: User | null, path: string, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array; type?: string }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const response = await checkedFetch(`${app.url}/backend${path}`, { method: 'POST', headers: user?.token ? { authorization: `Bearer ${user.token}` } : {}, body: form });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

const uploadContext = (user: User | null, conversationId: string, file: { name: string; bytes: Uint8Array; type?: string }, extra: Record<string, string> = {}) =>
  send(user, '/conversation/v2/research/upload_file', { conversation_id: conversationId, file_type: 'file', ...extra }, file);

const newSession = async (user: User) => (await user.request('POST', '/backend/conversation/sessions', {})).body.session_id as string;

/** Every stored object, so a refusal can be shown to have stored nothing. */
function storedObjects(): string[] {
  const root = join(app.dataDir, 'blobs');
  const walk = (dir: string): string[] => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((entry) => (entry.name.startsWith('.') ? [] : entry.isDirectory() ? walk(join(dir, entry.name)) : [relative(root, join(dir, entry.name))]));
  };
  return walk(root).sort();
}

async function download(user: User, path: string) {
  const response = await checkedFetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${user.token}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

test.serial('a Chinese PDF becomes a context of the session; its text can be requested back', async (t) => {
  const user = await signUp(app.url, 'uploader');
  const session = await newSession(user);
  const uploaded = await uploadContext(user, session, { name: '事件溯源研究.pdf', bytes: fixture('zh.pdf'), type: 'application/pdf' }, { round: '1' });
  t.is(uploaded.status, 200, JSON.stringify(uploaded.body));
  t.true(uploaded.body.success);
  t.like(uploaded.body.data, { filename: '事件溯源研究.pdf', file_type: 'pdf', size: fixture('zh.pdf').length, pages: 2, title: '事件溯源研究', round: 1, truncated: false });
  t.regex(uploaded.body.data.context_id, /^[0-9a-f-]{36}$/);

  const listed = await user.request('GET', `/backend/conversation/api/research/contexts/${session}`);
  t.is(listed.status, 200);
  t.true(listed.body.success);
  t.is(listed.body.data.length, 1);
  t.like(listed.body.data[0], { context_id: uploaded.body.data.context_id, type: 'file', filename: '事件溯源研究.pdf', file_type: 'pdf', chars: uploaded.body.data.chars, round: 1 });

  const text = await download(user, `/backend/conversation/api/research/request_context/${uploaded.body.data.context_id}?conversation_id=${session}`);
  t.is(text.status, 200);
  t.regex(text.headers.get('content-type') ?? '', /^text\/plain; charset=utf-8/);
  t.regex(text.headers.get('content-disposition') ?? '', /^attachment; filename=.*filename\*=UTF-8''%E4%BA%8B%E4%BB%B6/);
  const body = text.bytes.toString('utf8');
  t.is(body.length, uploaded.body.data.chars);
  t.true(body.startsWith('事件溯源研究报告\n事件溯源把每一次变更记录为不可变的事件。'));
});

test.serial('DOCX, HTML, Markdown and GBK text are read with their own readers', async (t) => {
  const user = await signUp(app.url, 'formats');
  const session = await newSession(user);
  const cases = [
    { name: '季度报告.docx', file: 'zh.docx', kind: 'docx', contains: '收入同比增长百分之十二' },
    { name: 'page.html', file: 'zh.html', kind: 'html', contains: '第1段：读模型可以随时从事件日志重建' },
    { name: '提纲.md', file: 'zh.md', kind: 'md', contains: '# 调研提纲' },
    { name: '笔记.txt', file: 'zh-gbk.txt', kind: 'txt', contains: '事件溯源让每一次变更都可以回放' },
  ];
  for (const item of cases) {
    const uploaded = await uploadContext(user, session, { name: item.name, bytes: fixture(item.file) });
    t.is(uploaded.status, 200, `${item.name}: ${JSON.stringify(uploaded.body)}`);
    t.is(uploaded.body.data.file_type, item.kind);
    const text = await download(user, `/backend/conversation/api/research/request_context/${uploaded.body.data.context_id}?conversation_id=${session}`);
    t.true(text.bytes.toString('utf8').includes(item.contains), item.name);
  }
  const html = (await download(user, `/backend/conversation/api/research/request_context/${(await user.request('GET', `/backend/conversation/api/research/contexts/${session}`)).body.data[1].context_id}?conversation_id=${session}`)).bytes.toString('utf8');
  t.false(html.includes('不应出现的脚本文字'), 'scripts are not text');
  t.deepEqual((await user.request('GET', `/backend/conversation/api/research/contexts/${session}`)).body.data.map((context: any) => context.file_type), ['docx', 'html', 'md', 'txt']);
});

test.serial('the same file uploaded twice is one context', async (t) => {
  const user = await signUp(app.url, 'twice');
  const session = await newSession(user);
  const first = await uploadContext(user, session, { name: 'notes.txt', bytes: fixture('zh.txt') });
  const before = storedObjects();
  const second = await uploadContext(user, session, { name: 'notes.txt', bytes: fixture('zh.txt') });
  t.is(second.status, 200);
  t.is(second.body.data.context_id, first.body.data.context_id);
  t.is((await user.request('GET', `/backend/conversation/api/research/contexts/${session}`)).body.data.length, 1);
  t.deepEqual(storedObjects(), before, 'the second copy was not kept');
});

test.serial('refusals store nothing: size, type, content, ownership, sign-in, missing parts', async (t) => {
  const owner = await signUp(app.url, 'refused');
  const stranger = await signUp(app.url, 'stranger');
  const session = await newSession(owner);
  const before = storedObjects();

  const tooBig = await uploadContext(owner, session, { name: 'big.txt', bytes: Buffer.alloc(20 * 1024 * 1024 + 1, 0x61) });
  t.is(tooBig.status, 413);
  t.is(tooBig.body.detail, '文件大小不能超过 20 MB');

  const exe = await uploadContext(owner, session, { name: 'setup.exe', bytes: fixture('zh.txt') });
  t.is(exe.status, 415);
  t.regex(exe.body.detail, /不支持 \.exe 文件。支持的格式：TXT、Markdown、PDF、DOCX、HTML/);

  const disguised = await uploadContext(owner, session, { name: 'paper.pdf', bytes: fixture('zh.docx') });
  t.is(disguised.status, 415);
  t.regex(disguised.body.detail, /文件内容与扩展名不符/);

  const locked = await uploadContext(owner, session, { name: 'locked.pdf', bytes: fixture('zh-encrypted.pdf') });
  t.is(locked.status, 422);
  t.deepEqual(locked.body.detail, [{ loc: ['body', 'file'], msg: 'PDF 已加密，请先移除密码再上传', type: 'encrypted', code: 'files.pdf_encrypted' }]);

  const foreign = await uploadContext(stranger, session, { name: 'notes.txt', bytes: fixture('zh.txt') });
  t.is(foreign.status, 404);
  t.is(foreign.body.detail, '会话不存在');

  const anonymous = await uploadContext(null, session, { name: 'notes.txt', bytes: fixture('zh.txt') });
  t.is(anonymous.status, 401);

  const noFile = await send(owner, '/conversation/v2/research/upload_file', { conversation_id: session });
  t.is(noFile.status, 422);
  t.deepEqual(noFile.body.detail, [{ loc: ['body', 'file'], msg: '请选择要上传的文件', type: 'missing', code: 'files.missing' }]);

  const badId = await uploadContext(owner, 'not-a-uuid', { name: 'notes.txt', bytes: fixture('zh.txt') });
  t.is(badId.status, 422);
  t.deepEqual(badId.body.detail[0].loc, ['body', 'conversation_id']);

  const twoFiles = new FormData();
  twoFiles.append('conversation_id', session);
  twoFiles.append('file', new Blob([fixture('zh.txt')]), 'a.txt');
  twoFiles.append('file', new Blob([fixture('zh.txt')]), 'b.txt');
  const two = await checkedFetch(`${app.url}/backend/conversation/v2/research/upload_file`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: twoFiles });
  t.is(two.status, 422);

  t.deepEqual(storedObjects(), before);
  t.deepEqual((await owner.request('GET', `/backend/conversation/api/research/contexts/${session}`)).body.data, []);
  t.is((await stranger.request('GET', `/backend/conversation/api/research/contexts/${session}`)).status, 404);
});

test.serial('a body streamed without a length is cut off at 20 MB all the same', async (t) => {
  const user = await signUp(app.url, 'streamer');
  const session = await newSession(user);
  const boundary = 'scriptorium-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="conversation_id"\r\n\r\n${session}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const chunk = Buffer.alloc(1024 * 1024, 0x62);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) controller.enqueue(head);
      if (sent < 21) {
        controller.enqueue(chunk);
        sent++;
      } else {
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        controller.close();
      }
    },
  });
  const before = storedObjects();
  const response = await checkedFetch(`${app.url}/backend/conversation/v2/research/upload_file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  t.is(response.status, 413);
  t.is(((await response.json()) as any).detail, '文件大小不能超过 20 MB');
  t.deepEqual(storedObjects(), before);
});

test.serial('a removed context is gone from the list, its text and its storage', async (t) => {
  const user = await signUp(app.url, 'remover');
  const session = await newSession(user);
  const before = storedObjects();
  const uploaded = await uploadContext(user, session, { name: 'notes.md', bytes: fixture('zh.md') });
  t.is(storedObjects().length, before.length + 2, 'the upload and its text');
  const removed = await user.request('POST', '/backend/conversation/api/research/contexts/delete', { conversation_id: session, context_id: uploaded.body.data.context_id });
  t.is(removed.status, 200);
  t.deepEqual(removed.body, { success: true, data: { context_id: uploaded.body.data.context_id } });
  t.deepEqual((await user.request('GET', `/backend/conversation/api/research/contexts/${session}`)).body.data, []);
  t.deepEqual(storedObjects(), before);
  t.is((await download(user, `/backend/conversation/api/research/request_context/${uploaded.body.data.context_id}?conversation_id=${session}`)).status, 404);
  const again = await user.request('POST', '/backend/conversation/api/research/contexts/delete', { conversation_id: session, context_id: uploaded.body.data.context_id });
  t.is(again.status, 404);
  t.is(again.body.detail, '上下文不存在');
});

test.serial('a note is selected only when it is the user’s own; its content is the context text', async (t) => {
  const user = await signUp(app.url, 'noter');
  const other = await signUp(app.url, 'othernoter');
  const session = await newSession(user);
  const notes = app.services.readStore.collection('notes');
  await notes.put({ _id: 'note-mine', user_id: user.userId, name: '读书笔记', content: '《设计数据密集型应用》第十一章：流处理。' });
  await notes.put({ _id: 'note-theirs', user_id: other.userId, name: '别人的笔记', content: '不可见' });

  for (const id of ['note-missing', 'note-theirs']) {
    const refused = await user.request('POST', `/backend/conversation/api/research/select_note/${id}`, { conversation_id: session });
    t.is(refused.status, 404);
    t.is(refused.body.detail, '笔记不存在');
  }
  const selected = await user.request('POST', '/backend/conversation/api/research/select_note/note-mine', { conversation_id: session });
  t.is(selected.status, 200);
  t.like(selected.body, { success: true, data: { note_id: 'note-mine', title: '读书笔记' } });
  const again = await user.request('POST', '/backend/conversation/api/research/select_note/note-mine', { conversation_id: session });
  t.is(again.body.data.context_id, selected.body.data.context_id);

  const listed = (await user.request('GET', `/backend/conversation/api/research/contexts/${session}`)).body.data;
  t.is(listed.length, 1);
  t.like(listed[0], { type: 'note', title: '读书笔记', file_type: 'note', note_id: 'note-mine' });
  const text = await download(user, `/backend/conversation/api/research/request_context/${selected.body.data.context_id}?conversation_id=${session}`);
  t.is(text.bytes.toString('utf8'), '《设计数据密集型应用》第十一章：流处理。');
  t.is((await other.request('POST', '/backend/conversation/api/research/select_note/note-theirs', { conversation_id: session })).status, 404, 'not their session');
});

test.serial('the content preference merges changes and is read back', async (t) => {
  const user = await signUp(app.url, 'preferrer');
  const session = await newSession(user);
  t.deepEqual((await user.request('GET', `/backend/conversation/api/research/content_preference/${session}`)).body, {
    success: true,
    data: { length: 'medium', style: 'professional', language: 'zh', instructions: '' },
  });
  const set = await user.request('POST', '/backend/conversation/api/research/content_preference', { conversation_id: session, length: 'long', instructions: '多引用一手数据' });
  t.is(set.status, 200);
  t.deepEqual(set.body.data, { length: 'long', style: 'professional', language: 'zh', instructions: '多引用一手数据' });
  await user.request('POST', '/backend/conversation/api/research/content_preference', { conversation_id: session, style: 'academic' });
  t.deepEqual((await user.request('GET', `/backend/conversation/api/research/content_preference/${session}`)).body.data, {
    length: 'long',
    style: 'academic',
    language: 'zh',
    instructions: '多引用一手数据',
  });
  const invalid = await user.request('POST', '/backend/conversation/api/research/content_preference', { conversation_id: session, length: 'huge' });
  t.is(invalid.status, 422);
  t.deepEqual(invalid.body.detail[0].loc, ['body', 'length']);
  const stranger = await signUp(app.url, 'prefstranger');
  t.is((await stranger.request('POST', '/backend/conversation/api/research/content_preference', { conversation_id: session, length: 'short' })).status, 404);
});

test.serial('a general upload answers with a URL only its owner can download, under its Chinese name', async (t) => {
  const user = await signUp(app.url, 'generaluploader');
  const other = await signUp(app.url, 'generalother');
  const uploaded = await send(user, '/conversation/api/upload_file', {}, { name: '季度报告.docx', bytes: fixture('zh.docx') });
  t.is(uploaded.status, 200, JSON.stringify(uploaded.body));
  t.true(uploaded.body.success);
  t.is(uploaded.body.data.final_filename, '季度报告.docx');
  t.regex(uploaded.body.data.file_url, /^\/backend\/conversation\/api\/files\/[0-9a-f-]{36}$/);

  const mine = await download(user, uploaded.body.data.file_url);
  t.is(mine.status, 200);
  t.deepEqual(mine.bytes, fixture('zh.docx'));
  t.is(mine.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  t.is(mine.headers.get('content-disposition'), `attachment; filename="????.docx"; filename*=UTF-8''${encodeURIComponent('季度报告')}.docx`);
  t.is(mine.headers.get('x-content-type-options'), 'nosniff');
  t.is((await download(other, uploaded.body.data.file_url)).status, 404);
  t.is((await checkedFetch(`${app.url}${uploaded.body.data.file_url}`)).status, 401);

  const refused = await send(user, '/conversation/api/upload_file', {}, { name: 'image.png', bytes: fixture('zh.txt') });
  t.is(refused.status, 415);
});
