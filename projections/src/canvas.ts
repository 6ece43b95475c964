import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { WritingVersionSaved, TargetedEditApplied } from '@scriptorium/backend/domain/conversation/conversation';
import type { CanvasVersion } from '@scriptorium/backend/protocol/research';
import type { Projection } from './projection.ts';

/** A session's canvas: every saved version of its report (spec: versions, currentVersion). */
export interface CanvasDoc extends Doc {
  artifact_id: string;
  versions: Array<CanvasVersion & { interrupted: boolean; source: 'writing' | 'targeted_edit' }>;
  currentVersion: number;
}

export const CANVAS = 'canvas';

export const canvasProjection: Projection = {
  name: 'canvas',
  collections: [CANVAS],
  handles: ['WritingVersionSaved', 'TargetedEditApplied'] satisfies Array<(WritingVersionSaved | TargetedEditApplied)['type']>,
  async apply(recorded: RecordedEvent, tx) {
    const canvas = tx.collection<CanvasDoc>(CANVAS);
    const event = { type: recorded.type, data: recorded.data } as WritingVersionSaved | TargetedEditApplied;
    const version =
      event.type === 'WritingVersionSaved'
        ? { version: event.data.version, title: event.data.title, content: event.data.content, timestamp: event.data.at, interrupted: event.data.interrupted, source: 'writing' as const }
        : { version: event.data.version, title: event.data.title, content: event.data.fullContent, timestamp: event.data.at, interrupted: false, source: 'targeted_edit' as const };
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
