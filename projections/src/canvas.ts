import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { CanvasEdited, WritingVersionSaved, TargetedEditApplied } from '@scriptorium/domain/conversation/conversation';
import type { CanvasVersion } from '@scriptorium/domain/protocol/research';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { Projection } from './projection.ts';

/** A session's canvas: every saved version of its report (spec: versions, currentVersion). */
export interface CanvasDoc extends Doc {
  artifact_id: string;
  versions: Array<CanvasVersion & { interrupted: boolean; source: 'writing' | 'targeted_edit' | 'user_edit' }>;
  currentVersion: number;
}

export const CANVAS = 'canvas';

type CanvasChange = WritingVersionSaved | TargetedEditApplied | CanvasEdited;

function versionOf(event: CanvasChange): CanvasDoc['versions'][number] {
  const { version, title, at } = event.data;
  switch (event.type) {
    case 'WritingVersionSaved':
      return { version, title, content: event.data.content, timestamp: at, interrupted: event.data.interrupted, source: 'writing', ...(event.data.citations && { citations: event.data.citations }) };
    case 'TargetedEditApplied':
      return { version, title, content: event.data.fullContent, timestamp: at, interrupted: false, source: 'targeted_edit', ...(event.data.citations && { citations: event.data.citations }) };
    case 'CanvasEdited':
      return { version, title, content: event.data.content, timestamp: at, interrupted: false, source: 'user_edit' };
    default:
      return assertNever(event);
  }
}

export const canvasProjection: Projection = {
  name: 'canvas',
  collections: [CANVAS],
  handles: ['WritingVersionSaved', 'TargetedEditApplied', 'CanvasEdited'] satisfies Array<CanvasChange['type']>,
  async apply(recorded: RecordedEvent, tx) {
    const canvas = tx.collection<CanvasDoc>(CANVAS);
    const event = { type: recorded.type, data: recorded.data } as CanvasChange;
    const version = versionOf(event);
    const existing = await canvas.get(event.data.sessionId);
    if (existing?.versions.some((candidate) => candidate.version === version.version)) return;
    await canvas.put({
      _id: event.data.sessionId,
      artifact_id: event.data.artifactId,
      versions: [...(existing?.versions ?? []), version],
      currentVersion: version.version,
    });
  },
};
