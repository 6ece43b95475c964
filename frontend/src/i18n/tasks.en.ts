import type { tasksZh } from './tasks.zh.ts';

/** The task reward flow: the day's tasks in the user status dialog and their rewards. */
export const tasksEn: typeof tasksZh = {
  title: "Today's tasks",
  completed: 'Completed',
  total: 'Tasks',
  coinsToday: 'Earned today',
  reward: '+{{coins}}',
  progress: 'Progress {{current}}/{{target}}',
  claim: 'Claim reward',
  claiming: 'Claiming…',
  claimed: 'Claimed',
  claimedMessage: 'reward claimed, got {{coins}} cognition coins',
  claimFailed: 'claim failed, please retry later',
  empty: 'No tasks today',
  loadFailed: 'Could not load tasks',
  catalogue: {
    view_cognition: { name: 'Browse cognition', description_one: 'View {{count}} cognition entry today', description_other: 'View {{count}} different cognition entries today' },
    create_note: { name: 'Take a note', description_one: 'Create {{count}} note today', description_other: 'Create {{count}} notes today' },
    complete_research: { name: 'Finish a research report', description_one: 'Complete {{count}} deep research report today', description_other: 'Complete {{count}} deep research reports today' },
    ai_chat: { name: 'Chat with AI', description_one: 'Finish {{count}} conversation with the AI assistant today', description_other: 'Finish {{count}} conversations with the AI assistant today' },
  },
};
