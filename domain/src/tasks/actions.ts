import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { z } from 'zod';
import type { CognitionViewed } from '../cognition/cognition.ts';
import type { AgentReplyCompleted, WritingVersionSaved } from '../conversation/conversation.ts';
import type { ActionType } from './catalogue.ts';
import type { Reaction } from '@scriptorium/infra/eventsourcing/reactor';
import type { TaskService } from './service.ts';
import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { engineerDecider } from '../engineer/decide.ts';
import { engineerStream, type EngineerNodesAppended } from '../engineer/session.ts';

/** A reply of these agents, completed, counts as this action. */
const REPLY_ACTIONS: Partial<Record<AgentReplyCompleted['data']['agent'], ActionType>> = {
  poe_llm: 'complete_chat',
};

/** The notes context's event; only what a task needs is read from it. */
const noteCreated = z.object({ noteId: z.string().min(1), userId: z.string().min(1).optional() });

/**
 * The task process manager: finished chats (`AgentReplyCompleted` with outcome completed), finished
 * research, new notes (`NoteCreated`) and a reader's first view of a cognition (`CognitionViewed`)
 * count towards that user's tasks of the day. A deep research is finished when its report is written
 * (`WritingVersionSaved`, not cut short): the reply itself stays open for the user's feedback, and one
 * that ends on clarifying questions has researched nothing yet. A question answered in the
 * command-line assistant is a chat too: its answer is recorded in the CLI's engineer session as an
 * assistant message under the question (`EngineerNodesAppended`), counted once per question.
 */
export function taskActions(tasks: TaskService, commands: CommandHandler): Reaction {
  return {
    name: 'task-actions',
    handles: ['AgentReplyCompleted', 'WritingVersionSaved', 'NoteCreated', 'CognitionViewed', 'EngineerNodesAppended'],
    async react(event: RecordedEvent) {
      const commandId = `task-action:${event.id}`;
      if (event.type === 'EngineerNodesAppended') {
        const data = event.data as EngineerNodesAppended['data'];
        const answered = data.nodes.flatMap((node) => (node.node_type === 'message' && node.payload.role === 'assistant' && node.parent_id !== null ? [node.parent_id] : []));
        if (answered.length === 0) return;
        const { state } = await commands.load(engineerDecider, engineerStream(data.sessionId));
        if (state.status === 'none' || state.source !== 'cli') return;
        for (const question of answered) {
          await tasks.recordAction(data.ownerId, { actionType: 'complete_chat', targetType: 'engineer', targetId: `${data.sessionId}:${question}`, at: new Date(data.at) }, `${commandId}:${question}`);
        }
        return;
      }
      if (event.type === 'AgentReplyCompleted') {
        const data = event.data as AgentReplyCompleted['data'];
        const actionType = REPLY_ACTIONS[data.agent];
        const userId = event.metadata.userId;
        if (data.outcome !== 'completed' || !actionType || !userId) return;
        await tasks.recordAction(userId, { actionType, targetType: 'conversation', targetId: data.messageId, at: new Date(data.at) }, commandId);
        return;
      }
      if (event.type === 'WritingVersionSaved') {
        const data = event.data as WritingVersionSaved['data'];
        const userId = event.metadata.userId;
        if (data.agent !== 'deep_cognition' || data.interrupted || !userId) return;
        await tasks.recordAction(userId, { actionType: 'complete_research', targetType: 'conversation', targetId: data.messageId, at: new Date(data.at) }, commandId);
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
