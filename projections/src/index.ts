import { canvasProjection } from './canvas.ts';
import { chatsProjection } from './chats.ts';
import { messagesProjection } from './messages.ts';
import { sharesProjection } from './shares.ts';
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
  canvasProjection,
  sharesProjection,
  tokenUsageProjection(settings.timeZone),
];
