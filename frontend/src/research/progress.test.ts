import test from 'ava';
import i18next from 'i18next';
import type { ContentOf } from '@scriptorium/domain/protocol/content';
import { PROGRESS_CODES, progressText, type Progress } from '@scriptorium/domain/protocol/progress';
import { en } from '../i18n/en.ts';
import { zh } from '../i18n/zh.ts';
import { infoText } from './progress.ts';

const i18n = i18next.createInstance();
void i18n.init({ resources: { zh: { translation: zh }, en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
const info = (progress: Progress | undefined, content = progress ? progressText(progress) : ''): ContentOf<'info'> => ({
  agent: 'deep_cognition',
  content_type: 'info',
  message_id: 'm',
  timestamp: '',
  updated_at: '',
  content,
  ...(progress && { progress }),
});

test('progress is worded from its code in the UI language, parameters included', (t) => {
  const searching: Progress = { code: 'research.localSearch', params: { reason: 'off' } };
  t.is(infoText(i18n.getFixedT('en'), info(searching)), 'Web search is off: searching your own notes, uploads, cognition and earlier sources instead');
  t.is(infoText(i18n.getFixedT('zh'), info(searching)), progressText(searching), 'the Chinese wording is the text beside the code');
  const attached: Progress = { code: 'research.attachedRead', params: { count: 2, titles: ['A', 'B'] } };
  t.is(infoText(i18n.getFixedT('en'), info(attached)), 'Read the 2 items you attached to this research: A, B');
  t.is(infoText(i18n.getFixedT('en'), info({ code: 'research.attachedRead', params: { count: 1, titles: ['A'] } })), 'Read the item you attached to this research: A');
  t.is(infoText(i18n.getFixedT('zh'), info(attached)), '已读取你为本次研究添加的 2 份资料：A、B');
  const followUp: Progress = { code: 'research.followUp', params: { section: '成本与争议', reason: '资料之间的成本数据不一致', queries: ['钠电池 成本', '钠电池 价格'] } };
  t.is(infoText(i18n.getFixedT('zh'), info(followUp)), progressText(followUp));
  t.is(infoText(i18n.getFixedT('zh'), info(followUp)), '“成本与争议”还需补充（资料之间的成本数据不一致），追加搜索：钠电池 成本、钠电池 价格');
  t.is(infoText(i18n.getFixedT('en'), info(followUp)), 'The step "成本与争议" needs more (资料之间的成本数据不一致); searching again: 钠电池 成本, 钠电池 价格');
});

test('every code has a wording in both languages', (t) => {
  for (const code of PROGRESS_CODES) {
    for (const language of ['zh', 'en']) t.true(i18n.exists(`progress.${code}`, { lng: language }), `${language} ${code}`);
  }
});

test('an entry without a code shows its text as it came', (t) => {
  t.is(infoText(i18n.getFixedT('en'), info(undefined, '已暂停')), '已暂停');
});
