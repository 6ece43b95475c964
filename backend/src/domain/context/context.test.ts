import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { DEFAULT_PREFERENCE, type ContextEvent } from './context.ts';
import { contextDecider, MAX_CONTEXTS, type AddContextFile } from './decide.ts';
import { CONTENT_PREFERENCES, CONTEXTS, contextsProjection, type ContextDoc } from './projection.ts';

const spec = deciderSpec(contextDecider);
const T1 = '2026-03-01T00:00:00.000Z';
const T2 = '2026-03-02T00:00:00.000Z';
const actor = { sessionId: 's1', userId: 'u1' };

const file = (contextId: string, overrides: Partial<AddContextFile['data']> = {}): AddContextFile['data'] => ({
  ...actor,
  contextId,
  filename: '报告.pdf',
  fileType: 'pdf',
  size: 1234,
  sha256: `sha-${contextId}`,
  blobKey: `contexts/u1/${contextId}.original`,
  textKey: `contexts/u1/${contextId}.txt`,
  chars: 99,
  truncated: false,
  ...overrides,
});
const fileAdded = (contextId: string, overrides: Partial<AddContextFile['data']> = {}): ContextEvent => ({ type: 'ContextFileAdded', data: { ...file(contextId, overrides), at: T1 } });
const noteSelected: ContextEvent = { type: 'ContextNoteSelected', data: { ...actor, contextId: 'c-note', noteId: 'n1', title: '读书笔记', at: T1 } };

test('an uploaded file becomes a context, with its round when given', (t) => {
  spec([]).when({ type: 'AddContextFile', data: file('c1', { round: 2 }), metadata: at(T1) }).then(t, [fileAdded('c1', { round: 2 })]);
  spec([]).when({ type: 'AddContextFile', data: file('c1'), metadata: at(T1) }).then(t, [fileAdded('c1')]);
});

test('the same file uploaded again adds nothing; a different file with the same name does', (t) => {
  spec([fileAdded('c1')]).when({ type: 'AddContextFile', data: file('c2', { sha256: 'sha-c1' }), metadata: at(T2) }).then(t, []);
  spec([fileAdded('c1')])
    .when({ type: 'AddContextFile', data: file('c2'), metadata: at(T1) })
    .then(t, [fileAdded('c2')]);
});

test('a session holds at most MAX_CONTEXTS contexts', (t) => {
  const full = Array.from({ length: MAX_CONTEXTS }, (_, index) => fileAdded(`c${index}`));
  spec(full).when({ type: 'AddContextFile', data: file('extra'), metadata: at(T1) }).thenThrows(t, 'conflict', `每个会话最多添加 ${MAX_CONTEXTS} 个上下文，请先删除不需要的`);
  spec(full).when({ type: 'SelectNote', data: { ...actor, contextId: 'n', noteId: 'n1', title: 't' }, metadata: at(T1) }).thenThrows(t, 'conflict');
  spec([...full, { type: 'ContextRemoved', data: { ...actor, contextId: 'c0', at: T1 } }])
    .when({ type: 'AddContextFile', data: file('extra'), metadata: at(T1) })
    .then(t, [fileAdded('extra')]);
});

test('a note is selected once per session', (t) => {
  spec([]).when({ type: 'SelectNote', data: { ...actor, contextId: 'c-note', noteId: 'n1', title: '读书笔记' }, metadata: at(T1) }).then(t, [noteSelected]);
  spec([noteSelected]).when({ type: 'SelectNote', data: { ...actor, contextId: 'other', noteId: 'n1', title: '读书笔记' }, metadata: at(T2) }).then(t, []);
});

test('removing needs a context that is there', (t) => {
  spec([fileAdded('c1')]).when({ type: 'RemoveContext', data: { ...actor, contextId: 'c1' }, metadata: at(T2) }).then(t, [{ type: 'ContextRemoved', data: { ...actor, contextId: 'c1', at: T2 } }]);
  spec([fileAdded('c1'), { type: 'ContextRemoved', data: { ...actor, contextId: 'c1', at: T2 } }])
    .when({ type: 'RemoveContext', data: { ...actor, contextId: 'c1' }, metadata: at(T2) })
    .thenThrows(t, 'not_found', '上下文不存在');
});

test("another user's session reads as missing", (t) => {
  const stranger = { sessionId: 's1', userId: 'u2' };
  spec([fileAdded('c1')]).when({ type: 'RemoveContext', data: { ...stranger, contextId: 'c1' }, metadata: at(T2) }).thenThrows(t, 'not_found', '会话不存在');
  spec([fileAdded('c1')]).when({ type: 'AddContextFile', data: file('c2', stranger), metadata: at(T2) }).thenThrows(t, 'not_found');
  spec([fileAdded('c1')]).when({ type: 'SetContentPreference', data: { ...stranger, changes: { length: 'long' } }, metadata: at(T2) }).thenThrows(t, 'not_found');
});

test('a content preference merges into the current one; the same choice again records nothing', (t) => {
  const first: ContextEvent = { type: 'ContentPreferenceSet', data: { ...actor, preference: { ...DEFAULT_PREFERENCE, length: 'long', instructions: '多用数据' }, at: T1 } };
  spec([]).when({ type: 'SetContentPreference', data: { ...actor, changes: { length: 'long', instructions: ' 多用数据 ' } }, metadata: at(T1) }).then(t, [first]);
  spec([first])
    .when({ type: 'SetContentPreference', data: { ...actor, changes: { language: 'en' } }, metadata: at(T2) })
    .then(t, [{ type: 'ContentPreferenceSet', data: { ...actor, preference: { length: 'long', style: 'professional', language: 'en', instructions: '多用数据' }, at: T2 } }]);
  spec([first]).when({ type: 'SetContentPreference', data: { ...actor, changes: { length: 'long' } }, metadata: at(T2) }).then(t, []);
  spec([]).when({ type: 'SetContentPreference', data: { ...actor, changes: { instructions: '长'.repeat(501) } }, metadata: at(T1) }).thenThrows(t, 'invalid');
});

test('the read model lists what is in the session and keeps its preference', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contexts-projection-'));
  const store = new SqliteReadStore(join(dir, 'read.sqlite3'));
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await contextsProjection.setup?.(store);
  const events: ContextEvent[] = [
    fileAdded('c1', { round: 1 }),
    noteSelected,
    fileAdded('c2'),
    { type: 'ContextRemoved', data: { ...actor, contextId: 'c2', at: T2 } },
    { type: 'ContentPreferenceSet', data: { ...actor, preference: { ...DEFAULT_PREFERENCE, style: 'academic' }, at: T2 } },
  ];
  let position = 0;
  for (const event of events) {
    position++;
    await store.transaction((tx) =>
      contextsProjection.apply({ id: `e${position}`, streamId: 'contexts-s1', type: event.type, data: event.data, metadata: { at: T1 }, revision: position - 1, position }, tx),
    );
  }
  const docs = await store.collection<ContextDoc>(CONTEXTS).find({ session_id: 's1' }, { sort: { position: 1 } });
  t.deepEqual(
    docs.map((doc) => [doc._id, doc.kind, doc.name, doc.file_type, doc.round]),
    [
      ['c1', 'file', '报告.pdf', 'pdf', 1],
      ['c-note', 'note', '读书笔记', 'note', null],
    ],
  );
  t.like(await store.collection(CONTENT_PREFERENCES).get('s1'), { style: 'academic', length: 'medium', language: 'zh', user_id: 'u1', updated_at: T2 });
});
