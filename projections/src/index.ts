import { accountsProjection } from './accounts.ts';
import { activityProjection } from './activity.ts';
import { auditReadsProjection } from './auditReads.ts';
import { agentsProjection } from './agents.ts';
import { appSignInsProjection } from './appSignIns.ts';
import { canvasProjection } from './canvas.ts';
import { cognitionsProjection } from './cognitions.ts';
import { collabDocsProjection } from './collabDocs.ts';
import { chatsProjection } from './chats.ts';
import { cliLeaderboardProjection } from './cliLeaderboard.ts';
import { engineerProjection } from './engineer.ts';
import { dailyTasksProjection } from './tasks.ts';
import { deckReviewsProjection } from './deckReviews.ts';
import { feedbackProjection } from './feedback.ts';
import { invitesProjection } from './invites.ts';
import { messagesProjection } from './messages.ts';
import { notesProjection } from './notes.ts';
import { oauthGrantsProjection } from './oauthGrants.ts';
import { outboxProjection } from './outbox.ts';
import { sharesProjection } from './shares.ts';
import { contextsProjection } from './contexts.ts';
import type { Projection } from './projection.ts';
import { tokenUsageProjection } from './tokenUsage.ts';
import { trajectoriesProjection } from './trajectories.ts';
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
  contextsProjection,
  tokenUsageProjection(settings.timeZone),
  accountsProjection,
  invitesProjection,
  dailyTasksProjection,
  feedbackProjection,
  outboxProjection,
  notesProjection,
  cognitionsProjection,
  trajectoriesProjection,
  activityProjection,
  agentsProjection,
  cliLeaderboardProjection,
  auditReadsProjection,
  engineerProjection,
  oauthGrantsProjection,
  appSignInsProjection,
  deckReviewsProjection,
  collabDocsProjection,
];
