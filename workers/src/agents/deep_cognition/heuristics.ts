/**
 * What the research agent decides without a language model: whether a question needs clarifying,
 * which questions to ask, the plan, the search queries, which results look useful and what a page
 * says about the question. Deterministic, rule-based and labelled as such wherever a user sees it.
 */
import type { ClarificationAnswer, ClarificationQuestion, WebResult } from '@scriptorium/domain/protocol/research';
import type { SearchHit } from '@scriptorium/infra/search/port';
import { clip, coverage, keyPhrases, languageOf, sentencesOf, termsOf, type Language } from './text.ts';

export interface QuestionAnalysis {
  language: Language;
  topic: string;
  phrases: string[];
  /** Scope dimensions the question already settles. */
  covered: Dimension[];
  specific: boolean;
}

type Dimension = 'focus' | 'time' | 'region' | 'purpose';

const dimensionPatterns: Record<Dimension, RegExp> = {
  time: /(?:19|20)\d{2}|近\s*[\d一二三四五六七八九十]+\s*年|最近|今年|去年|明年|未来|过去|当前|近期|recent|this year|last year|next year|since \d{4}|past \d+ years|\d{4}s/i,
  region: /中国|国内|国外|海外|美国|欧洲|欧盟|日本|韩国|印度|亚洲|全球|世界|国际|[\p{Script=Han}]{2,}[省市]|china|chinese|united states|\bus\b|\beu\b|europe|japan|india|asia|global|worldwide|international/iu,
  focus: /技术|原理|市场|产业|行业|政策|监管|商业|应用|成本|竞争|投资|风险|案例|供应链|technolog|market|industry|policy|regulat|business|application|cost|competition|investment|risk|case stud|supply chain/i,
  purpose: /报告|对比|比较|评估|建议|决策|入门|综述|优缺点|利弊|compare|comparison|versus|\bvs\b|evaluate|assessment|recommend|decision|beginner|survey|review|pros and cons/i,
};

/** A question this long says enough about what it wants even without naming its scope. */
const SPECIFIC_LENGTH: Record<Language, number> = { zh: 60, en: 160 };

const topicPrefix = /^(?:请|麻烦)?(?:你)?(?:帮我|帮忙)?(?:调研|研究|分析|介绍|了解|总结|梳理|写)(?:一下|一篇)?(?:关于)?/u;

export function analyseQuestion(question: string): QuestionAnalysis {
  const language = languageOf(question);
  const line = question.replace(/\s+/g, ' ').trim();
  const first = line.split(/[。！？!?\n，,；;]/)[0]?.trim() || line;
  const topic = clip(first.replace(topicPrefix, '').replace(/^(?:please\s+)?(?:research|analy[sz]e|summari[sz]e|explain|write (?:a )?report on)\s+/i, '').replace(/[？?。.!！]+$/, '') || first, 40);
  const covered = (Object.keys(dimensionPatterns) as Dimension[]).filter((dimension) => dimensionPatterns[dimension].test(line));
  const specific = covered.length >= 2 || line.length >= SPECIFIC_LENGTH[language];
  return { language, topic, phrases: keyPhrases(question, 6), covered, specific };
}

const texts = {
  zh: {
    offlineThink: '【离线模式】未配置语言模型，以下分析由规则生成。',
    question: (q: string) => `问题：${q}`,
    keywords: (k: string) => `关键词：${k || '（未识别到）'}`,
    covered: (c: string) => `已明确的范围：${c || '无'}`,
    verdictClarify: '判断：问题的范围还不够明确，先请你澄清几个问题再开始检索。',
    verdictGo: '判断：问题已足够具体，直接制定研究计划。',
    dimensions: { focus: '侧重点', time: '时间范围', region: '地域范围', purpose: '用途与深度' } satisfies Record<Dimension, string>,
    statusClarify: '已理解问题，需要先澄清研究范围',
    statusGo: '问题已足够具体，开始研究',
    goal: (topic: string) => `围绕「${topic}」检索资料并撰写一份带引用的研究报告`,
    focusQ: (topic: string) => `关于「${topic}」，你最希望报告侧重哪些方面？`,
    focusOptions: ['整体概览', '技术原理与进展', '市场与产业格局', '政策与监管', '典型案例与应用'],
    timeQ: '希望关注的时间范围是？',
    timeOptions: ['最近一年', '近三到五年', '长期历史演变', '不限'],
    regionQ: '关注的地域范围是？',
    regionOptions: ['中国', '全球', '其他（请在补充说明中注明）'],
    purposeQ: '这份报告的用途和深度是？',
    purposeOptions: ['快速了解要点', '深入分析报告', '决策参考与建议'],
    notesQ: '还有其他要求或已知信息吗？（可选）',
    steps: (topic: string) => [
      `梳理「${topic}」的基本概念与背景`,
      `调研「${topic}」的现状与最新进展`,
      `分析「${topic}」面临的关键问题与挑战`,
      `总结「${topic}」的发展趋势与建议`,
    ],
    focusStep: (topic: string, focus: string) => `深入分析「${topic}」的${focus}`,
    // The report's title names the topic already; its section headings say only what each part covers.
    headings: ['基本概念与背景', '现状与最新进展', '关键问题与挑战', '发展趋势与建议'],
    aspects: ['概念 背景', '现状 进展', '挑战 问题', '趋势 展望'],
    focusAspect: (focus: string) => focus,
    deepen: ['案例 数据', '影响 评价', '对比 比较'],
  },
  en: {
    offlineThink: '[Offline mode] No language model is configured; this analysis is rule-based.',
    question: (q: string) => `Question: ${q}`,
    keywords: (k: string) => `Key terms: ${k || '(none found)'}`,
    covered: (c: string) => `Scope already given: ${c || 'none'}`,
    verdictClarify: 'Verdict: the scope is not clear yet, so a few questions come first.',
    verdictGo: 'Verdict: the question is specific enough; planning the research now.',
    dimensions: { focus: 'focus', time: 'time range', region: 'region', purpose: 'purpose and depth' } satisfies Record<Dimension, string>,
    statusClarify: 'Understood the question; the scope needs clarifying first',
    statusGo: 'The question is specific enough; starting the research',
    goal: (topic: string) => `Search for sources on "${topic}" and write a cited research report`,
    focusQ: (topic: string) => `What should the report on "${topic}" focus on?`,
    focusOptions: ['General overview', 'Technology and progress', 'Market and industry', 'Policy and regulation', 'Cases and applications'],
    timeQ: 'Which time range matters?',
    timeOptions: ['The last year', 'The last 3–5 years', 'Long-term history', 'Any'],
    regionQ: 'Which region?',
    regionOptions: ['China', 'Global', 'Other (say which in the notes)'],
    purposeQ: 'What is the report for, and how deep should it go?',
    purposeOptions: ['Quick overview', 'In-depth analysis', 'Decision support'],
    notesQ: 'Anything else the report should take into account? (optional)',
    steps: (topic: string) => [
      `Background and key concepts of ${topic}`,
      `Current state and recent developments of ${topic}`,
      `Key problems and challenges of ${topic}`,
      `Trends and recommendations for ${topic}`,
    ],
    focusStep: (topic: string, focus: string) => `${focus}: a closer look at ${topic}`,
    headings: ['Background and key concepts', 'Current state and recent developments', 'Key problems and challenges', 'Trends and recommendations'],
    aspects: ['background concept', 'current state progress', 'challenges problems', 'trends outlook'],
    focusAspect: (focus: string) => focus,
    deepen: ['case study data', 'impact evaluation', 'comparison'],
  },
} as const;

/** Offline, the topic names the report: a question's closing words ("…如何", "…吗") do not belong in a title. */
export function reportTitle(analysis: QuestionAnalysis): string {
  if (analysis.language === 'en') return `Research report: ${analysis.topic}`;
  const topic = analysis.topic.replace(/(?:的)?(?:情况|现状)?(?:如何|怎样|怎么样|是什么|有哪些|有多大|吗|呢)$/u, '') || analysis.topic;
  return /报告$/.test(topic) ? topic : `${topic}研究报告`;
}

export function thinking(question: string, analysis: QuestionAnalysis): string {
  const t = texts[analysis.language];
  const covered = analysis.covered.map((dimension) => t.dimensions[dimension]).join(analysis.language === 'zh' ? '、' : ', ');
  return [
    t.offlineThink,
    t.question(question.trim()),
    t.keywords(analysis.phrases.join(analysis.language === 'zh' ? '、' : ', ')),
    t.covered(covered),
    analysis.specific ? t.verdictGo : t.verdictClarify,
  ].join('\n');
}

export function statusAndGoal(analysis: QuestionAnalysis): { status: string; goal: string } {
  const t = texts[analysis.language];
  return { status: analysis.specific ? t.statusGo : t.statusClarify, goal: t.goal(analysis.topic) };
}

/** One question per scope dimension the user left open, and a free-text one for anything else. */
export function clarificationQuestions(analysis: QuestionAnalysis): ClarificationQuestion[] {
  const t = texts[analysis.language];
  const open = (dimension: Dimension) => !analysis.covered.includes(dimension);
  const questions: ClarificationQuestion[] = [];
  if (open('focus')) questions.push({ id: 'q-focus', question_content: t.focusQ(analysis.topic), question_options: [...t.focusOptions], question_type: 'multiple', section_id: 'focus' });
  if (open('time')) questions.push({ id: 'q-time', question_content: t.timeQ, question_options: [...t.timeOptions], question_type: 'single', section_id: 'time' });
  if (open('region')) questions.push({ id: 'q-region', question_content: t.regionQ, question_options: [...t.regionOptions], question_type: 'single', section_id: 'region' });
  if (open('purpose')) questions.push({ id: 'q-purpose', question_content: t.purposeQ, question_options: [...t.purposeOptions], question_type: 'single', section_id: 'purpose' });
  questions.push({ id: 'q-notes', question_content: t.notesQ, question_options: [], question_type: 'text', section_id: 'notes' });
  return questions;
}

/** Options that narrow nothing a search engine can use: as query words they would only add noise. */
const unnarrowing = new Set<string>([
  texts.zh.focusOptions[0],
  texts.en.focusOptions[0],
  ...texts.zh.timeOptions,
  ...texts.en.timeOptions,
  ...texts.zh.purposeOptions,
  ...texts.en.purposeOptions,
  '全球',
  'Global',
]);

/** What the answers add to the question, as short phrases. */
export function answerPhrases(answers: readonly ClarificationAnswer[]): string[] {
  return answers.flatMap((answer) => [...answer.selectedOptions, answer.textInput]).map((text) => text.replace(/（.*?）|\(.*?\)/g, '').trim()).filter((text) => text && !unnarrowing.has(text));
}

/** The answers as the report's scope lines: "question: answer". */
export function answerLines(answers: readonly ClarificationAnswer[], language: Language): string[] {
  const [colon, separator] = language === 'zh' ? ['：', '、'] : [': ', ', '];
  return answers
    .map((answer) => {
      const given = [...answer.selectedOptions, answer.textInput.trim()].filter(Boolean);
      return given.length > 0 ? `${answer.question.trim().replace(/[？?]$/, '') || answer.id}${colon}${given.join(separator)}` : '';
    })
    .filter(Boolean);
}

export interface PlannedStep {
  description: string;
  /** The report's heading for the step: the description without the topic, which the title already names. */
  heading: string;
  queries: string[];
}

export function plan(analysis: QuestionAnalysis, answers: readonly ClarificationAnswer[]): PlannedStep[] {
  const t = texts[analysis.language];
  const focus = answers
    .filter((answer) => answer.id === 'q-focus')
    .flatMap((answer) => answer.selectedOptions)
    .filter((option) => !unnarrowing.has(option));
  const descriptions: string[] = [...t.steps(analysis.topic)];
  const headings: string[] = [...t.headings];
  const aspects: string[] = [...t.aspects];
  focus.slice(0, 2).forEach((option, index) => {
    descriptions.splice(2 + index, 0, t.focusStep(analysis.topic, option));
    headings.splice(2 + index, 0, option);
    aspects.splice(2 + index, 0, t.focusAspect(option));
  });
  const base = baseQuery(analysis, answers);
  return descriptions.map((description, index) => ({ description, heading: headings[index]!, queries: [`${base} ${aspects[index] ?? ''}`.trim()] }));
}

/** The question's key phrases and the narrowing answers: what every query of the research starts from. */
export function baseQuery(analysis: QuestionAnalysis, answers: readonly ClarificationAnswer[]): string {
  const narrowing = answerPhrases(answers).filter((phrase) => phrase.length <= 12 && !texts.zh.focusOptions.includes(phrase as never) && !texts.en.focusOptions.includes(phrase as never));
  return [...(analysis.phrases.length > 0 ? analysis.phrases.slice(0, 3) : [analysis.topic]), ...narrowing.slice(0, 2)].join(' ');
}

/** Queries for one more round: the same subject from angles the plan did not take. */
export function deepenQueries(analysis: QuestionAnalysis, answers: readonly ClarificationAnswer[]): string[] {
  const base = baseQuery(analysis, answers);
  return texts[analysis.language].deepen.map((aspect) => `${base} ${aspect}`);
}

/** Queries for the user's own words about the report. */
export function feedbackQueries(analysis: QuestionAnalysis, feedback: string): string[] {
  const phrases = keyPhrases(feedback, 4);
  const subject = analysis.phrases.slice(0, 2).join(' ') || analysis.topic;
  return [[subject, ...phrases].join(' ').trim()];
}

export function steps(analysis: QuestionAnalysis, kind: 'continue' | 'manual_feedback', feedback: string): string[] {
  if (analysis.language === 'en') {
    return kind === 'continue'
      ? [`Search for more sources on ${analysis.topic}`, 'Deepen and extend the report']
      : [`Search for what the feedback asks: ${clip(feedback, 40)}`, 'Revise the report as asked'];
  }
  return kind === 'continue'
    ? [`补充检索「${analysis.topic}」的更多资料`, '深化分析并扩写报告']
    : [`根据反馈检索资料：${clip(feedback, 40)}`, '按反馈修改报告'];
}

/** A result is useful when its title and snippet share enough of the question's and the step's terms. */
const USEFUL_COVERAGE = 0.2;

export function judge(hits: readonly SearchHit[], about: string): WebResult[] {
  const terms = termsOf(about);
  return hits.map((hit) => {
    const useful = coverage(terms, `${hit.title} ${hit.snippet}`) >= USEFUL_COVERAGE;
    return { title: hit.title, url: hit.url, snippet: hit.snippet, has_useful_info: useful, useful_info_summary: useful ? bestSentences(hit.snippet, terms, 1, 160) || clip(hit.snippet, 160) : '' };
  });
}

/** The `count` sentences of a text that cover the terms best, in the order the text has them. */
export function bestSentences(text: string, terms: readonly string[], count: number, max = 200, bonus: (sentence: string) => number = () => 0): string {
  const ranked = sentencesOf(text)
    .map((sentence, order) => ({ sentence, order, score: coverage(terms, sentence) + bonus(sentence) }))
    .filter((candidate) => candidate.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, count)
    .sort((a, b) => a.order - b.order);
  return ranked.map((candidate) => clip(candidate.sentence, max)).join(' ');
}

/** What a page says about the question: its best sentences, else its opening. */
export function pageSummary(text: string, about: string): string {
  const best = bestSentences(text, termsOf(about), 3);
  return best || sentencesOf(text).slice(0, 2).map((sentence) => clip(sentence, 200)).join(' ');
}
