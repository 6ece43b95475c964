import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { z } from 'zod';
import type { CognitionViewed } from '../cognition/cognition.ts';
import type { AgentReplyCompleted } from '../conversation/conversation.ts';
import type { ActionType } from './catalogue.ts';
import type { Reaction } from '@scriptorium/infra/eventsourcing/reactor';
import type { TaskService } from './service.ts';

/** A reply of these agents, completed, counts as this action. */
const REPLY_ACTIONS: Partial<Record<AgentReplyCompleted['data']['agent'], ActionType>> = {
  deep_cognition: 'complete_research',
  poe_llm: 'complete_chat',
};

/** The notes context's event; only what a task needs is read from it. */
const noteCreated = z.object({ noteId: z.string().min(1), userId: z.string().min(1).optional() });

/**
 * The task process manager: finished research and chats (`AgentReplyCompleted` with outcome
 * completed), new notes (`NoteCreated`) and a reader's first view of a cognition (`CognitionViewed`)
 * count towards that user's tasks of the day.
 */
export function taskActions(tasks: TaskService): Reaction {
  return {
    name: 'task-actions',
    handles: ['AgentReplyCompleted', 'NoteCreated', 'CognitionViewed'],
    async react(event: RecordedEvent) {
      const commandId = `task-action:${event.id}`;
      if (event.type === 'AgentReplyCompleted') {
        const data = event.data as AgentReplyCompleted['data'];
        const actionType = REPLY_ACTIONS[data.agent];
        const userId = event.metadata.userId;
        if (data.outcome !== 'completed' || !actionType || !userId) return;
        await tasks.recordAction(userId, { actionType, targetType: 'conversation', targetId: data.messageId, at: new Date(data.at) }, commandId);
        return;
      }
      if (event.type === 'CognitionViewed') {
        const data = event.data as CognitionViewed['data'];
        await tasks.recordAction(data.viewerId, { actionType: 'view_cognition', targetType: 'cognition', targetId: data.cognitionId, at: new Date(data.at) }, commandId);
        return;
      }
      const note = noteCreated.safeParse(event.data);
      const userId = note.success ? (note.data.userId ?? event.metadata.userId) : undefined;
      if (!note.success || !userId) return;
      await tasks.recordAction(userId, { actionType: 'create_note', targetType: 'note', targetId: note.data.noteId, at: new Date(event.metadata.at) }, commandId);
    },
  };
}
