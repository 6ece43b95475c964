import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { DEFAULT_PREFERENCE, type ContextEvent } from './context.ts';
import { contextDecider, MAX_CONTEXTS, type AddContextFile } from './decide.ts';
import { contextFile } from './testing.ts';

const spec = deciderSpec(contextDecider);
const T1 = '2026-03-01T00:00:00.000Z';
const T2 = '2026-03-02T00:00:00.000Z';
const actor = { sessionId: 's1', userId: 'u1' };

const file = contextFile;
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
