import { accountEn } from './account.en.ts';
import { agentsEn } from './agents.en.ts';
import { cliEn } from './cli.en.ts';
import { cognitionEn } from './cognition.en.ts';
import { collabEn } from './collab.en.ts';
import { en } from './en.ts';
import { engineerEn } from './engineer.en.ts';
import { notesEn } from './notes.en.ts';
import { pptEn } from './ppt.en.ts';
import { refusalResources } from './refusals.ts';
import { tasksEn } from './tasks.en.ts';
import { writingEn } from './writing.en.ts';

/** Every namespace in English: a chunk of its own, loaded when English is chosen (`index.ts`). */
export const enResources = { translation: en, account: accountEn, cognition: cognitionEn, writing: writingEn, notes: notesEn, cli: cliEn, agents: agentsEn, engineer: engineerEn, ppt: pptEn, collab: collabEn, tasks: tasksEn, refusals: refusalResources('en') };
