import { refuse } from '@scriptorium/domain/refuse';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';

/** The session as its owner sees it; anyone else gets the same 404 as for a missing one. */
export async function ownedChat(readStore: ReadStore, userId: string, sessionId: string): Promise<ChatDoc> {
  const chat = await readStore.collection<ChatDoc>(CHATS).get(sessionId);
  if (!chat || chat.user_id !== userId) throw refuse('not_found', 'conversation.not_found');
  return chat;
}
