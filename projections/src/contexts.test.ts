import test from 'ava';
import { DEFAULT_PREFERENCE, type ContextEvent, type ContextFileAdded } from '@scriptorium/domain/context/context';
import { contextFile } from '@scriptorium/domain/context/testing';
import { CONTENT_PREFERENCES, CONTEXTS, contextsProjection } from './contexts.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<ContextEvent>(contextsProjection);
const T1 = '2026-03-01T00:00:00.000Z';
const T2 = '2026-03-02T00:00:00.000Z';
const actor = { sessionId: 's1', userId: 'u1' };

const fileAdded = (contextId: string, overrides: Partial<ContextFileAdded['data']> = {}): ContextFileAdded => ({
  type: 'ContextFileAdded',
  data: { ...contextFile(contextId), at: T1, ...overrides },
});
const noteSelected: ContextEvent = { type: 'ContextNoteSelected', data: { ...actor, contextId: 'c-note', noteId: 'n1', title: '读书笔记', at: T1 } };
const bySession = { filter: { session_id: 's1' }, sort: { position: 1 } } as const;

test('an uploaded file and a selected note are listed in the order they were added', async (t) => {
  await spec.given(fileAdded('c1', { round: 1 }), noteSelected, fileAdded('c0')).then(
    t,
    CONTEXTS,
    [
      { _id: 'c1', kind: 'file', name: '报告.pdf', file_type: 'pdf', size: 1234, chars: 99, sha256: 'sha-c1', blob_key: 'contexts/u1/c1.original', text_key: 'contexts/u1/c1.txt', note_id: null, round: 1, position: 1 },
      { _id: 'c-note', kind: 'note', name: '读书笔记', file_type: 'note', size: null, chars: null, sha256: null, blob_key: null, note_id: 'n1', round: null, position: 2 },
      { _id: 'c0', round: null, position: 3 },
    ],
    bySession,
  );
});

test("another session's contexts are not listed with this one's", async (t) => {
  await spec.given(fileAdded('c1'), fileAdded('c2', { sessionId: 's2' })).then(t, CONTEXTS, [{ _id: 'c1' }], bySession);
});

test('a removed context leaves the list', async (t) => {
  const scenario = spec.given(fileAdded('c1'), noteSelected, { type: 'ContextRemoved', data: { ...actor, contextId: 'c1', at: T2 } });
  await scenario.then(t, CONTEXTS, [{ _id: 'c-note' }], bySession);
  await scenario.thenDoc(t, CONTEXTS, 'c1', null);
});

test('the latest content preference is kept per session', async (t) => {
  await spec
    .given(
      { type: 'ContentPreferenceSet', data: { ...actor, preference: { ...DEFAULT_PREFERENCE, length: 'long' }, at: T1 } },
      { type: 'ContentPreferenceSet', data: { ...actor, preference: { ...DEFAULT_PREFERENCE, style: 'academic' }, at: T2 } },
    )
    .thenDoc(t, CONTENT_PREFERENCES, 's1', { user_id: 'u1', length: 'medium', style: 'academic', language: 'zh', instructions: '', updated_at: T2 });
});

test('replaying the log leaves the same contexts', async (t) => {
  await spec.given(fileAdded('c1'), noteSelected, { type: 'ContextRemoved', data: { ...actor, contextId: 'c1', at: T2 } }).replayed().then(t, CONTEXTS, [{ _id: 'c-note', position: 2 }]);
});
