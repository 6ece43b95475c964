import { accountZh } from './account.zh.ts';
import { agentsZh } from './agents.zh.ts';
import { cliZh } from './cli.zh.ts';
import { cognitionZh } from './cognition.zh.ts';
import { collabZh } from './collab.zh.ts';
import { engineerZh } from './engineer.zh.ts';
import { notesZh } from './notes.zh.ts';
import { pptZh } from './ppt.zh.ts';
import { tasksZh } from './tasks.zh.ts';
import { writingZh } from './writing.zh.ts';
import { zh } from './zh.ts';

/**
 * Every namespace in Chinese, the default language: bundled with the page, so the first render is
 * translated. Refusals are not among them: Chinese readers get the server's own text (`index.ts`).
 */
export const zhResources = { translation: zh, account: accountZh, cognition: cognitionZh, writing: writingZh, notes: notesZh, cli: cliZh, agents: agentsZh, engineer: engineerZh, ppt: pptZh, collab: collabZh, tasks: tasksZh };
