import { accountEn } from './account.en.ts';
import { accountZh } from './account.zh.ts';
import { agentsEn } from './agents.en.ts';
import { agentsZh } from './agents.zh.ts';
import { cliEn } from './cli.en.ts';
import { cliZh } from './cli.zh.ts';
import { cognitionEn } from './cognition.en.ts';
import { cognitionZh } from './cognition.zh.ts';
import { collabEn } from './collab.en.ts';
import { collabZh } from './collab.zh.ts';
import { en } from './en.ts';
import { engineerEn } from './engineer.en.ts';
import { engineerZh } from './engineer.zh.ts';
import { notesEn } from './notes.en.ts';
import { notesZh } from './notes.zh.ts';
import { pptEn } from './ppt.en.ts';
import { pptZh } from './ppt.zh.ts';
import { refusalResources } from './refusals.ts';
import { writingEn } from './writing.en.ts';
import { writingZh } from './writing.zh.ts';
import { zh } from './zh.ts';

/** Every namespace in both languages: what i18next loads, what /demo/i18n lays side by side, what the key test checks. */
export const resources = {
  zh: { translation: zh, account: accountZh, cognition: cognitionZh, writing: writingZh, notes: notesZh, cli: cliZh, agents: agentsZh, engineer: engineerZh, ppt: pptZh, collab: collabZh, refusals: refusalResources('zh') },
  en: { translation: en, account: accountEn, cognition: cognitionEn, writing: writingEn, notes: notesEn, cli: cliEn, agents: agentsEn, engineer: engineerEn, ppt: pptEn, collab: collabEn, refusals: refusalResources('en') },
};
