import test from 'ava';
import type { ConversationEvent } from '@scriptorium/domain/conversation/conversation';
import { CANVAS, canvasProjection } from './canvas.ts';
import { SESSION, T2, T3, versionSaved } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<ConversationEvent>(canvasProjection);
const edited: ConversationEvent = {
  type: 'TargetedEditApplied',
  data: { sessionId: SESSION, requestId: 'r1', artifactId: 'artifact-1', fromVersion: 1, version: 2, title: '报告 v2', instruction: '改短', originalSnippet: '初稿全文', editedSnippet: '初稿', fullContent: '初稿', at: T3 },
};
const byHand: ConversationEvent = { type: 'CanvasEdited', data: { sessionId: SESSION, artifactId: 'artifact-1', fromVersion: 2, version: 3, title: '报告 v3', content: '手改的稿', at: T3 } };

test('every saved, edited or hand-written version is kept in order; the newest is current', async (t) => {
  await spec.given(versionSaved(1, '初稿全文'), edited, byHand).thenDoc(t, CANVAS, SESSION, {
    artifact_id: 'artifact-1',
    currentVersion: 3,
    versions: [
      { version: 1, title: '报告 v1', content: '初稿全文', timestamp: T2, interrupted: false, source: 'writing' },
      { version: 2, title: '报告 v2', content: '初稿', timestamp: T3, interrupted: false, source: 'targeted_edit' },
      { version: 3, title: '报告 v3', content: '手改的稿', timestamp: T3, interrupted: false, source: 'user_edit' },
    ],
  });
});

test('an interrupted writing is kept, marked as such', async (t) => {
  const interrupted = versionSaved(1, '半篇');
  await spec.given({ ...interrupted, data: { ...interrupted.data, interrupted: true } }).thenDoc(t, CANVAS, SESSION, { versions: [{ version: 1, interrupted: true }] });
});

test('a version seen again is not added twice', async (t) => {
  await spec.given(versionSaved(1, '初稿全文')).when(edited).replayed().thenDoc(t, CANVAS, SESSION, { currentVersion: 2, versions: [{ version: 1 }, { version: 2 }] });
});

test("a written version keeps its citation checks, which the read route returns with it", async (t) => {
  const written = versionSaved(1, '初稿全文');
  const citations = [{ n: 1, offset: 0, verdict: 'supported' as const, action: 'kept' as const, excerpt: '初稿' }];
  await spec.given({ ...written, data: { ...written.data, citations } }).thenDoc(t, CANVAS, SESSION, { versions: [{ version: 1, citations }] });
});

test('a targeted edit keeps the checks its version was saved with', async (t) => {
  const citations = [{ n: 1, offset: 0, verdict: 'unsupported' as const, action: 'marked' as const, excerpt: '初稿全文', missing: ['900'] }];
  await spec.given(versionSaved(1, '初稿全文'), { ...edited, data: { ...edited.data, citations } } as ConversationEvent).thenDoc(t, CANVAS, SESSION, { versions: [{ version: 1 }, { version: 2, source: 'targeted_edit', citations }] });
});
