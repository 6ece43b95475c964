import type { Readable } from 'node:stream';
import type { BlobStore } from '@scriptorium/infra/blob/port';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { ContextEvent } from '@scriptorium/backend/domain/context/context';
import type { Reaction } from '@scriptorium/backend/domain/tasks/reactor';
import type { LocalCorpus } from './local.ts';

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Keeps the offline search index in step with the log: an uploaded file's extracted text is indexed
 * for its owner, a removed context leaves the index. Like a read model, the index can be rebuilt by
 * replaying the log from position 0 (delete `corpus.sqlite3` and its reactor checkpoint).
 */
export function corpusFeed(corpus: LocalCorpus, blobs: BlobStore): Reaction {
  return {
    name: 'corpus',
    handles: ['ContextFileAdded', 'ContextRemoved'] satisfies ContextEvent['type'][],
    async react(recorded: RecordedEvent) {
      const event = { type: recorded.type, data: recorded.data } as ContextEvent;
      if (event.type === 'ContextFileAdded') {
        const { contextId, userId, filename, textKey } = event.data;
        if (!(await blobs.stat(textKey))) return;
        corpus.upsert({ id: contextId, userId, kind: 'upload', title: filename, text: await readText(await blobs.get(textKey)) });
      } else if (event.type === 'ContextRemoved') {
        corpus.remove(event.data.contextId);
      }
    },
  };
}
