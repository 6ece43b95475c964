import { chatsProjection } from './chats.ts';
import { messagesProjection } from './messages.ts';
import type { Projection } from './projection.ts';
import { tokenUsageProjection } from './tokenUsage.ts';
import { usersProjection } from './users.ts';

export interface ProjectionSettings {
  timeZone: string;
}

export const createProjections = (settings: ProjectionSettings): Projection[] => [
  usersProjection,
  chatsProjection,
  messagesProjection,
  tokenUsageProjection(settings.timeZone),
];
