import test from 'ava';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { editState, shownVersion, writingEvent, writingMachine, type CanvasSave, type SavedCanvas } from './writing.ts';
import type { WireContent } from '@scriptorium/domain/protocol/content';

const canvas = 'dccanvas';
const longText = '固态电池的商业化进展可以从材料体系、制造工艺和成本三个维度来比较，本文逐一展开分析。'.repeat(2);

function start() {
  const warnings: string[] = [];
  const machine = writingMachine.provide({ actions: { warnNoArtifact: () => void warnings.push('ignored') } });
  return { actor: createActor(machine, { clock: new SimulatedClock(), input: { sessionId: 's-1' } }).start(), warnings };
}

test('writing_start shows a loading item and chunks stream into the version', (t) => {
  const { actor } = start();
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 1, title: '报告' });
  t.true(actor.getSnapshot().matches({ stream: 'writing' }));
  t.deepEqual(actor.getSnapshot().context.notice, { kind: 'writing', level: 'info', version: 1 });
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: '第一段' });
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: '，第二段' });
  t.is(shownVersion(actor.getSnapshot().context)?.content, '第一段，第二段');
  t.true(shownVersion(actor.getSnapshot().context)?.streaming);
});

test('a rollback takes the streaming draft back to the start of the section being written again', (t) => {
  const { actor } = start();
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 1, title: '报告' });
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: '## 一\n\n' });
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: '写到一半' });
  actor.send({ type: 'writing.rollback', artifact_id: canvas, length: '## 一\n\n'.length });
  t.is(shownVersion(actor.getSnapshot().context)?.content, '## 一\n\n');
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: '重写的一节' });
  t.is(shownVersion(actor.getSnapshot().context)?.content, '## 一\n\n重写的一节');
});

test('writing_end saves a version of 50 characters or more with 写作完成', (t) => {
  const { actor } = start();
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 1, title: '报告' });
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: longText });
  actor.send({ type: 'writing.ended', artifact_id: canvas, version: 1, interrupted: false, saved: true });
  const { context } = actor.getSnapshot();
  t.true(actor.getSnapshot().matches({ stream: 'idle' }));
  t.is(context.versions.length, 1);
  t.is(context.currentVersion, 1);
  t.is(context.notice?.kind, 'done');
});

test('an uninterrupted result under 50 characters discards the version', (t) => {
  const { actor } = start();
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 1 });
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: '太短了' });
  actor.send({ type: 'writing.ended', artifact_id: canvas, version: 1, interrupted: false });
  t.is(actor.getSnapshot().context.versions.length, 0);
  t.is(actor.getSnapshot().context.notice?.kind, 'discarded');
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 2 });
  actor.send({ type: 'writing.ended', artifact_id: canvas, version: 2, interrupted: false });
  t.is(actor.getSnapshot().context.versions.length, 0, 'empty content is discarded too');
});

test('an interrupted end keeps partial content with a warning', (t) => {
  const { actor } = start();
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 3 });
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: '半截' });
  actor.send({ type: 'writing.ended', artifact_id: canvas, version: 3, interrupted: true });
  const { context } = actor.getSnapshot();
  t.deepEqual(
    context.versions.map((version) => [version.version, version.content]),
    [[3, '半截']],
  );
  t.deepEqual(context.notice, { kind: 'interrupted', level: 'warning', version: 3 });
});

test('writing messages without an artifact_id are ignored with a warning', (t) => {
  const { actor, warnings } = start();
  actor.send({ type: 'writing.started', version: 1, artifact_id: '' });
  t.true(actor.getSnapshot().matches({ stream: 'idle' }));
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 1 });
  actor.send({ type: 'writing.chunk', artifact_id: '', content: 'x' });
  t.is(shownVersion(actor.getSnapshot().context)?.content, '');
  t.is(warnings.length, 2);
});

test('versions can be loaded, switched and replaced by a targeted edit', (t) => {
  const { actor } = start();
  actor.send({
    type: 'canvas.loaded',
    versions: [
      { version: 2, title: 'B', content: 'second', timestamp: '2025-01-02' },
      { version: 1, title: 'A', content: 'first', timestamp: '2025-01-01' },
    ],
    currentVersion: 2,
  });
  t.is(shownVersion(actor.getSnapshot().context)?.content, 'second');
  actor.send({ type: 'version.selected', version: 1 });
  t.is(shownVersion(actor.getSnapshot().context)?.content, 'first');
  actor.send({ type: 'version.selected', version: 9 });
  t.is(actor.getSnapshot().context.currentVersion, 1, 'unknown versions are not selectable');
  actor.send({ type: 'edit.applied', version: 3, content: 'third' });
  t.is(actor.getSnapshot().context.currentVersion, 3);
  t.is(shownVersion(actor.getSnapshot().context)?.title, 'A', 'an edit keeps the title of the version it edited');
});

const loaded = { type: 'canvas.loaded' as const, versions: [{ version: 1, title: 'A', content: 'first', timestamp: '2025-01-01' }], currentVersion: 1 };

function withSave(save: (input: CanvasSave) => Promise<SavedCanvas>) {
  const machine = writingMachine.provide({ actors: { saveCanvas: fromPromise<SavedCanvas, CanvasSave>(({ input }) => save(input)) } });
  return createActor(machine, { clock: new SimulatedClock(), input: { sessionId: 's-1' } }).start();
}

test('a hand edit is kept until saved, then becomes the next version', async (t) => {
  const sent: CanvasSave[] = [];
  const actor = withSave(async (input) => {
    sent.push(input);
    return { versions: [...loaded.versions, { version: 2, title: 'A', content: input.content, timestamp: '2025-01-02' }], currentVersion: 2 };
  });
  actor.send({ type: 'version.edited' });
  t.is(editState(actor.getSnapshot()), 'clean', 'nothing to edit before a version exists');
  actor.send(loaded);
  actor.send({ type: 'version.edited' });
  t.is(editState(actor.getSnapshot()), 'dirty');
  t.is(shownVersion(actor.getSnapshot().context)?.content, 'first', 'the saved version is unchanged until saving');
  actor.send({ type: 'edit.saved', content: 'first, edited' });
  t.is(editState(actor.getSnapshot()), 'saving');
  await new Promise((resolve) => setTimeout(resolve, 0));
  t.deepEqual(sent, [{ sessionId: 's-1', content: 'first, edited', fromVersion: 1 }]);
  t.is(editState(actor.getSnapshot()), 'clean');
  t.is(actor.getSnapshot().context.currentVersion, 2);
  t.is(shownVersion(actor.getSnapshot().context)?.content, 'first, edited');
});

test('a failed save keeps the edit and says why', async (t) => {
  const actor = withSave(() => Promise.reject(new Error('版本冲突')));
  actor.send(loaded);
  actor.send({ type: 'version.edited' });
  actor.send({ type: 'edit.saved', content: 'x' });
  await new Promise((resolve) => setTimeout(resolve, 0));
  t.is(editState(actor.getSnapshot()), 'dirty');
  t.is(actor.getSnapshot().context.saveError, '版本冲突');
  actor.send({ type: 'version.edited' });
  t.is(actor.getSnapshot().context.saveError, '版本冲突', 'still shown while typing on');
  actor.send({ type: 'edit.discarded' });
  t.is(editState(actor.getSnapshot()), 'clean');
});

test('a new version from elsewhere (canvas_saved, targeted edit, writing) ends the hand edit', (t) => {
  const actor = withSave(() => new Promise(() => undefined));
  actor.send(loaded);
  actor.send({ type: 'version.edited' });
  actor.send({ type: 'edit.applied', version: 2, content: 'saved elsewhere', title: 'A' });
  t.is(editState(actor.getSnapshot()), 'clean');
  t.is(actor.getSnapshot().context.currentVersion, 2);
  t.is(actor.getSnapshot().context.versions.length, 2);
  actor.send({ type: 'version.edited' });
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 3 });
  t.is(editState(actor.getSnapshot()), 'clean');
  actor.send({ type: 'version.edited' });
  t.is(editState(actor.getSnapshot()), 'clean', 'not while a version is being written');
});

const twoVersions = { type: 'canvas.loaded' as const, versions: [...loaded.versions, { version: 2, title: 'A', content: 'second', timestamp: '2025-01-02' }], currentVersion: 2 };

test('switching version with unsaved hand edits asks first: stay, discard, or save then switch', async (t) => {
  const actor = withSave(async (input) => ({ versions: [...twoVersions.versions, { version: 3, title: 'A', content: input.content, timestamp: '2025-01-03' }], currentVersion: 3 }));
  actor.send(twoVersions);
  actor.send({ type: 'version.edited' });
  actor.send({ type: 'version.selected', version: 1 });
  t.true(actor.getSnapshot().matches({ edit: 'confirmingSwitch' }));
  t.is(actor.getSnapshot().context.currentVersion, 2, 'the edited version stays shown while asking');
  actor.send({ type: 'switch.cancelled' });
  t.true(actor.getSnapshot().matches({ edit: 'dirty' }));
  t.is(actor.getSnapshot().context.currentVersion, 2);

  actor.send({ type: 'version.selected', version: 1 });
  actor.send({ type: 'edit.discarded' });
  t.true(actor.getSnapshot().matches({ edit: 'clean' }));
  t.is(actor.getSnapshot().context.currentVersion, 1, 'discarding goes on to the version asked for');

  actor.send({ type: 'version.edited' });
  actor.send({ type: 'version.selected', version: 2 });
  actor.send({ type: 'edit.saved', content: 'first, edited' });
  t.true(actor.getSnapshot().matches({ edit: 'saving' }));
  await new Promise((resolve) => setTimeout(resolve, 0));
  t.true(actor.getSnapshot().matches({ edit: 'clean' }));
  t.is(actor.getSnapshot().context.versions.length, 3, 'the edits were saved as a new version');
  t.is(actor.getSnapshot().context.currentVersion, 2, 'then the version asked for is shown');
});

test('a version saved with its citation checks keeps them, so its citations open their evidence without a reload', (t) => {
  const { actor } = start();
  const citations = [{ n: 1, offset: 0, verdict: 'supported' as const, action: 'kept' as const, excerpt: '原文' }];
  actor.send({ type: 'writing.started', artifact_id: canvas, version: 1, title: '报告' });
  actor.send({ type: 'writing.chunk', artifact_id: canvas, content: longText });
  actor.send({ type: 'writing.ended', artifact_id: canvas, version: 1, interrupted: false, saved: true, citations });
  t.deepEqual(actor.getSnapshot().context.versions[0]?.citations, citations);
});

test('a targeted edit keeps the checks its version was saved with', (t) => {
  const citations = [{ n: 2, offset: 5, verdict: 'unsupported' as const, action: 'marked' as const, excerpt: '原文', missing: ['900'] }];
  const event = writingEvent({ agent: 'targeted_edit', content_type: 'targeted_edit_result', message_id: 'e', timestamp: '2026-11-29T00:00:00Z', request_id: 'e', original_snippet: '旧', edited_snippet: '新', full_content: '# 新', artifact_id: canvas, version: 2, citations } as unknown as WireContent);
  const { actor } = start();
  actor.send(event!);
  t.deepEqual(actor.getSnapshot().context.versions.find((version) => version.version === 2)?.citations, citations);
});
