/**
 * Which stream items are text streamed in pieces, apart from the item schemas (`content.ts`, which
 * re-exports these), so the client's first load can fold a stream without bringing zod along.
 */

/** Text streamed in pieces (`MessageChunksAppended`): consecutive pieces of one type join into one item. */
export const CHUNKED_TYPES = ['chat_chunk', 'content', 'think', 'writing_content'] as const;
export type ChunkedType = (typeof CHUNKED_TYPES)[number];
/** For a `WireContent`, narrows to `ContentOf<ChunkedType>`. */
export const isChunk = <Item extends { content_type: string }>(item: Item): item is Extract<Item, { content_type: ChunkedType }> => (CHUNKED_TYPES as readonly string[]).includes(item.content_type);

/** Spec §4/§9: unless interrupted, streamed writing shorter than this becomes no version, on the server and in the canvas alike. */
export const MIN_WRITING_CHARS = 50;
