/**
 * Which stream items are text streamed in pieces, apart from the item schemas (`content.ts`), so the
 * client's first load can fold a stream without bringing zod along.
 */
import type { ContentOf, WireContent } from './content.ts';

/** Text streamed in pieces (`MessageChunksAppended`): consecutive pieces of one type join into one item. */
export const CHUNKED_TYPES = ['chat_chunk', 'content', 'think', 'writing_content'] as const;
export type ChunkedType = (typeof CHUNKED_TYPES)[number];
export const isChunk = (item: WireContent): item is ContentOf<ChunkedType> => (CHUNKED_TYPES as readonly string[]).includes(item.content_type);
