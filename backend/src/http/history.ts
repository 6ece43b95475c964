import type { z } from 'zod';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { MESSAGES, type MessageDoc } from '@scriptorium/projections/messages';
import { validationError } from './errors.ts';
import type { historyPageQuery } from '@scriptorium/domain/protocol/http/conversation';

/** A page asked for: how many exchanges, before which message order (null: the newest). */
export interface PageRequest {
  limit: number;
  before: number | null;
}

/** The default page when only `before` is given. */
const DEFAULT_LIMIT = 20;

const CURSOR_PREFIX = 'h1:';
const encodeCursor = (order: number) => Buffer.from(`${CURSOR_PREFIX}${order}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^h1:([1-9]\d{0,14})$/.exec(text);
  if (!match || encodeCursor(Number(match[1])) !== cursor) throw validationError([{ code: 'custom', path: ['before'], message: 'conversation.history_cursor_invalid', input: cursor }], 'query');
  return Number(match[1]);
}

/** The page a query asks for, or null for the whole history. */
export function pageRequest(query: z.infer<typeof historyPageQuery>): PageRequest | null {
  if (query.limit === undefined && query.before === undefined) return null;
  return { limit: query.limit ?? DEFAULT_LIMIT, before: query.before === undefined ? null : decodeCursor(query.before) };
}

export interface HistoryRead {
  messages: MessageDoc[];
  /** The cursor of the exchanges before these; null when these reach the start (and for the whole history). */
  earlier: string | null;
}

/**
 * A session's messages in order: all of them, or the newest `limit` exchanges before the cursor.
 * An exchange is a user's message and every message after it up to the next one (its replies, the
 * canvas saves in between); messages before the first user message belong to the first exchange.
 * A page is two indexed reads: where its exchanges start, then its messages.
 */
export async function readHistory(store: ReadStore, sessionId: string, page: PageRequest | null): Promise<HistoryRead> {
  const messages = store.collection<MessageDoc>(MESSAGES);
  if (!page) return { messages: await messages.find({ session_id: sessionId }, { sort: { order: 1 } }), earlier: null };
  const below = page.before === null ? {} : { $lt: page.before };
  const starts = await messages.find({ session_id: sessionId, role: 'user', ...(page.before !== null && { order: below }) }, { sort: { order: -1 }, limit: page.limit + 1 });
  const more = starts.length > page.limit;
  const from = more ? starts[page.limit - 1]!.order : 0;
  return {
    messages: await messages.find({ session_id: sessionId, order: { $gte: from, ...below } }, { sort: { order: 1 } }),
    earlier: more ? encodeCursor(from) : null,
  };
}

/** A session's page (null: the whole history) in one encoding: what `HistoryPages` keeps it under. */
export const historyPageKey = (sessionId: string, page: PageRequest | null, encoding: string): string =>
  `${sessionId}:${page ? `${page.limit}:${page.before ?? 'newest'}` : 'whole'}:${encoding}`;
