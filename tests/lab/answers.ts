/**
 * What the scripted model answers to each prompt it recognises. Prompts are told apart by what
 * they ask for (the JSON shape, the task named), not by their exact words, so a reworded prompt
 * is still understood; anything else gets a short, plausible answer in the asker's language.
 */
import { JUDGE_FACT_MARK, JUDGE_SCORE_MARK, JUDGE_WEIGHTS_MARK } from './judgePrompts.ts';
import { isChinese, normalise, overlap, sentencesOf, termsOf } from './text.ts';

export type CallKind =
  | 'analyse'
  | 'clarify'
  | 'plan'
  | 'queries'
  | 'reflect'
  | 'judge'
  | 'section'
  | 'summary'
  | 'deepen'
  | 'revise'
  | 'edit'
  | 'title'
  | 'citations'
  | 'race-weights'
  | 'race-score'
  | 'fact-check'
  | 'other';

/** A mistake the model made on purpose: which, the sentence it wrote, the number it cited. */
export interface Mistake {
  kind: 'misattributed' | 'dangling' | 'fabricated';
  n: number;
  sentence: string;
}

export interface Answer {
  kind: CallKind;
  text: string;
  mistakes: Mistake[];
}

interface Source {
  n: number;
  title: string;
  url: string;
  text: string;
}

type Message = { role: string; content: string };

export function kindOf(messages: readonly Message[]): CallKind {
  const system = messages.find((message) => message.role === 'system')?.content ?? '';
  const checks: Array<[CallKind, RegExp]> = [
    ['race-weights', new RegExp(JUDGE_WEIGHTS_MARK)],
    ['race-score', new RegExp(JUDGE_SCORE_MARK)],
    ['fact-check', new RegExp(JUDGE_FACT_MARK)],
    ['citations', /"citation_checks"/],
    ['analyse', /"needs_clarification"/],
    ['clarify', /"question_content"/],
    ['plan', /"steps"\s*:/],
    ['reflect', /"follow_up_queries"/],
    ['queries', /"queries"\s*:/],
    ['judge', /"useful"\s*:/],
    ['title', /起一个简短的标题|short title/i],
    ['summary', /开头的摘要/],
    ['deepen', /深入|go deeper/i],
    ['revise', /修改意见|feedback/i],
    ['section', /一节|section/i],
    ['edit', /编辑|editor/i],
  ];
  return checks.find(([, pattern]) => pattern.test(system))?.[0] ?? 'other';
}

/** The sources a provider put in a system message (`[n] title <url>` then the text). */
export function sourcesIn(messages: readonly Message[]): Source[] {
  const block = messages.find((message) => message.role === 'system' && /^Sources for this answer/.test(message.content));
  if (!block) return [];
  const body = block.content.slice(block.content.indexOf('\n\n') + 2);
  return body
    .split(/\n\n(?=\[\d+\] )/)
    .map((part) => {
      const head = /^\[(\d+)\] (.*?)(?: <(\S+)>)?\n([\s\S]*)$/.exec(part);
      return head ? { n: Number(head[1]), title: head[2]!, url: head[3] ?? '', text: head[4]!.trim() } : null;
    })
    .filter((source): source is Source => source !== null && source.text.length > 0);
}

const lastUser = (messages: readonly Message[]) => [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';

/** The subject of a question, as words a search engine takes: its first clause without the request around it. */
export function coreOf(question: string): string {
  if (isChinese(question)) {
    const clause = question.split(/[？?！!。\n]/)[0] ?? question;
    return clause.replace(/^(请问|请|帮我|我想知道)/, '').replace(/(如何|怎么样|怎样|有多大|是什么|吗|呢)$/, '').replace(/[，,].*$/, '').trim();
  }
  const words = (question.split(/[?!\n]/)[0] ?? question).replace(/[.,;:]/g, ' ').split(/\s+/).filter((word) => word && !/^(how|what|why|are|is|do|does|have|has|been|the|a|an|and|in|of|to|since|fast|which|who|whom|holds|them|back|there|any)$/i.test(word));
  return words.slice(0, 6).join(' ');
}

interface Ranked {
  sentence: string;
  n: number;
  score: number;
}

/**
 * What each kind of plan step looks for in a sentence, as a writer reads the sources for that
 * section: figures for the state of things, disagreement and money for the disputes, needs and
 * risks for the outlook.
 */
const CUES: Array<[RegExp, RegExp]> = [
  [/数据|现状|figures|current/i, /\d/],
  [/成本|争议|效益|cost|disput|benefit/i, /不过|但|另一|认为|成本|价格|回收|cost|price|contrast|however|re-analysis|questioned|claimed/i],
  [/问题|前景|obstacle|outlook/i, /需要|缺口|短缺|挑战|风险|前景|政策|试点|need|shortage|risk|plan|future|lead|policy/i],
];

/** Every sentence of the sources worth citing, best for `terms` first, each once; `step` adds its cues. */
function rank(sources: readonly Source[], terms: readonly string[], extra: readonly string[] = [], step = ''): Ranked[] {
  const cues = CUES.filter(([about]) => about.test(step)).map(([, cue]) => cue);
  const seen = new Set<string>();
  const ranked: Ranked[] = [];
  for (const source of sources) {
    for (const sentence of sentencesOf(source.text)) {
      const key = normalise(sentence);
      if (sentence.length < 16 || sentence.length > 300 || seen.has(key) || sentence === source.title) continue;
      seen.add(key);
      // Figures make a sentence worth quoting, as a writer looks for data first.
      const figures = /\d/.test(sentence) ? 0.25 : 0;
      const cued = cues.filter((cue) => cue.test(sentence)).length * 0.5;
      ranked.push({ sentence, n: source.n, score: overlap(terms, sentence) + 0.5 * overlap(extra, sentence) + figures + cued });
    }
  }
  return ranked.filter((entry) => entry.score > 0.05).sort((a, b) => b.score - a.score);
}

/** How a source that disputes another's figure introduces itself. */
const DISPUTE = /不过也有|但也有|另一项研究|by contrast|re-analysis|disputed|questioned/i;

/** `sentence` with `[n]` before its closing punctuation. */
function cite(sentence: string, n: number): string {
  const match = /^(.*?)([。！？.!?]?)$/su.exec(sentence.trim())!;
  return `${match[1]}[${n}]${match[2]}`;
}

interface Mood {
  random: () => number;
  mistakeRate: number;
  rewrites?: boolean;
}

/** Writes cited sentences, making a mistake in some as `mood` says. */
function write(picked: readonly Ranked[], sources: readonly Source[], zh: boolean, mood: Mood, subject: string): { text: string; mistakes: Mistake[] } {
  const mistakes: Mistake[] = [];
  const lines = picked.map((entry) => {
    if (mood.random() >= mood.mistakeRate) return cite(entry.sentence, entry.n);
    const roll = mood.random();
    if (roll < 1 / 3) {
      const other = sources.find((source) => source.n !== entry.n && !normalise(source.text).includes(normalise(entry.sentence)));
      if (other) {
        mistakes.push({ kind: 'misattributed', n: other.n, sentence: entry.sentence });
        return cite(entry.sentence, other.n);
      }
    }
    if (roll < 2 / 3) {
      const n = Math.max(0, ...sources.map((source) => source.n)) + 1 + Math.floor(mood.random() * 3);
      mistakes.push({ kind: 'dangling', n, sentence: entry.sentence });
      return cite(entry.sentence, n);
    }
    const made = zh ? `据估计，${subject}相关市场规模到2031年将达到9876亿元。` : `By one estimate, the market for ${subject} will reach 987.6 billion dollars by 2031.`;
    mistakes.push({ kind: 'fabricated', n: entry.n, sentence: made });
    return cite(made, entry.n);
  });
  return { text: lines.join(zh ? '' : ' '), mistakes };
}

/** The plan the scripted model proposes for a question: three steps with their headings and searches. */
export function scriptedPlan(question: string): Array<{ description: string; heading: string; queries: string[] }> {
  const q = coreOf(question);
  return isChinese(question)
    ? [
        { description: `梳理${q}的现状与关键数据`, heading: '现状与关键数据', queries: [`${q} 数据`, `${q} 现状`] },
        { description: `分析${q}的成本、效益与争议`, heading: '成本、效益与争议', queries: [`${q} 成本 争议`] },
        { description: `总结${q}面临的问题与前景`, heading: '问题与前景', queries: [`${q} 问题 前景`] },
      ]
    : [
        { description: `Current state and key figures of ${q}`, heading: 'Where things stand', queries: [`${q} figures`, `${q} market`] },
        { description: `Costs, benefits and disputed evidence on ${q}`, heading: 'Costs, benefits and disputes', queries: [`${q} evidence dispute`] },
        { description: `Obstacles and outlook for ${q}`, heading: 'Obstacles and outlook', queries: [`${q} obstacles outlook`] },
      ];
}

/** The report title the scripted model gives with its plan. */
const scriptedTitle = (question: string) => (isChinese(question) ? `${coreOf(question)}：现状、争议与前景` : `${coreOf(question)}: where things stand and what holds them back`);

const json = (value: unknown) => JSON.stringify(value, null, 1);

export function answerFor(messages: readonly Message[], mood: Mood): Answer {
  const kind = kindOf(messages);
  const user = lastUser(messages);
  const sources = sourcesIn(messages);
  const question = /(?:研究问题|Research question|问题|Question)[:：]\s*(.+)/.exec(user)?.[1] ?? user.split('\n')[0] ?? user;
  const zh = isChinese(question);
  const subject = coreOf(question);
  const plain = (text: string): Answer => ({ kind, text, mistakes: [] });

  switch (kind) {
    case 'analyse': {
      // A question without a year or a number leaves its scope open, and a careful model asks.
      const open = !/\d/.test(user);
      return plain(
        json({
          analysis: zh ? `用户想了解${subject}。${open ? '问题没有说明时间范围和侧重点。' : '问题给出了时间范围，可以直接研究。'}` : `The user asks about ${subject}. ${open ? 'The question gives no period or focus.' : 'The question sets its period; research can start.'}`,
          status: zh ? '已理解研究问题' : 'The question is understood',
          goal: zh ? `写一份关于${subject}的研究报告` : `A research report on ${subject}`,
          needs_clarification: open,
        }),
      );
    }
    case 'clarify':
      return plain(
        json({
          questions: zh
            ? [
                { question_content: '你最关心哪个方面？', question_options: ['经济性与数据', '技术与安全', '政策与前景'], question_type: 'single', section_id: 'scope' },
                { question_content: '报告的用途是什么？', question_options: ['决策参考', '学习了解'], question_type: 'single', section_id: 'purpose' },
              ]
            : [
                { question_content: 'Which aspect matters most to you?', question_options: ['Evidence and figures', 'Health effects', 'Policy and outlook'], question_type: 'single', section_id: 'scope' },
                { question_content: 'What is the report for?', question_options: ['A decision', 'General understanding'], question_type: 'single', section_id: 'purpose' },
              ],
        }),
      );
    case 'plan':
      return plain(json({ title: scriptedTitle(user), steps: scriptedPlan(user) }));
    case 'queries': {
      const q = coreOf(user);
      return plain(json({ queries: zh ? [`${q} 最新 数据`, `${q} 研究 综述`] : [`${q} latest data`, `${q} review`] }));
    }
    case 'reflect': {
      // A careful model checks a figure one source disputes before writing about it.
      const disputed = sentencesOf(user).find((sentence) => DISPUTE.test(sentence) && /\d/.test(sentence));
      if (!disputed) return plain(json({ answered: true, reason: '', follow_up_queries: [] }));
      return plain(
        json({
          answered: false,
          reason: zh ? `资料之间说法不一：${disputed.slice(0, 60)}` : `The sources disagree: ${disputed.slice(0, 100)}`,
          follow_up_queries: [zh ? `${subject} 数据 核实` : `${subject} evidence`],
        }),
      );
    }
    case 'judge': {
      const about = /(?:研究内容|Research)[:：]\s*(.+)/.exec(user)?.[1] ?? user;
      const terms = termsOf(about);
      const listed = user.split(/\n\n(?=\[\d+\] )/).flatMap((part) => {
        const head = /^(?:[\s\S]*?\n)?\[(\d+)\] ([^\n]*)\n([\s\S]*)$/.exec(part);
        // A result's address, when it has a line of its own, is no part of its snippet.
        return head ? [{ index: Number(head[1]), title: head[2]!, snippet: head[3]!.replace(/^https?:\/\/\S*\n?/, '').trim() }] : [];
      });
      // Useful: about as close to the research as the closest result, as a model compares what it is shown.
      const scores = listed.map((result) => overlap(terms, `${result.title} ${result.snippet}`));
      const best = Math.max(0, ...scores);
      return plain(
        json({ useful: listed.filter((_, index) => scores[index]! >= Math.max(0.08, best * 0.6)).map((result) => result.index) }),
      );
    }
    case 'section':
    case 'deepen': {
      const step = /(?:现在撰写这一节|Write this section now)[:：]\s*(.+)/.exec(user)?.[1] ?? question;
      const picked = rank(sources, termsOf(step), termsOf(question), step).slice(0, 4);
      if (picked.length === 0) return plain(zh ? '现有资料没有涉及这一部分，暂时无法给出有依据的结论。' : 'The sources say nothing about this part, so no grounded conclusion can be drawn yet.');
      const written = write(picked, sources, zh, mood, subject);
      const lead = zh ? `关于“${step}”，现有资料提供了以下信息。` : `The sources shed some light on this question.`;
      return { kind, text: `${lead}${zh ? '' : ' '}${written.text}`, mistakes: written.mistakes };
    }
    case 'summary': {
      const picked = rank(sources, termsOf(question)).slice(0, 3);
      const written = write(picked, sources, zh, mood, subject);
      const close = zh ? '总体来看，这一领域发展较快，但各方数据口径不一，仍需持续跟踪。' : 'Overall, the field is moving quickly, but sources count differently and the evidence needs watching.';
      return { kind, text: `${written.text}${zh ? '' : ' '}${close}`, mistakes: written.mistakes };
    }
    case 'revise': {
      const picked = rank(sources, termsOf(user)).slice(0, 4);
      const written = write(picked, sources, zh, mood, subject);
      return { kind, text: `# ${subject}\n\n${written.text}`, mistakes: written.mistakes };
    }
    case 'edit':
      return plain(user.split('\n').filter(Boolean).at(-1) ?? user);
    case 'title':
      return plain(zh ? subject.slice(0, 20) : subject.split(' ').slice(0, 6).join(' '));
    case 'citations': {
      // A careful judge: a claim is supported when the passage holds nearly all its words and every figure; one it
      // does not hold is restated as the passage's closest sentence.
      const claims = user.split(/\n\n(?=\[\d+\] )/).flatMap((part) => {
        const head = /^\[(\d+)\] [^:：]+[:：] ([^\n]*)\n[^:：]+[:：] ([\s\S]*)$/.exec(part.trim());
        return head ? [{ id: Number(head[1]), claim: head[2]!, passage: head[3]! }] : [];
      });
      return plain(
        json({
          citation_checks: claims.map(({ id, claim, passage }) => {
            const figures = claim.match(/\d[\d.,]*\d|\d/g) ?? [];
            const supported = overlap(termsOf(claim), passage) >= 0.8 && figures.every((figure) => passage.includes(figure));
            const closest = sentencesOf(passage.replace(/…$/, ''))
              .filter((sentence) => /[。！？.!?]$/.test(sentence))
              .map((sentence) => ({ sentence, score: overlap(termsOf(claim), sentence) }))
              .sort((a, b) => b.score - a.score)[0];
            return { id, supported, rewrite: supported || !closest || mood.rewrites === false ? '' : closest.sentence };
          }),
        }),
      );
    }
    case 'race-weights':
      return plain(json({ comprehensiveness: 0.3, insight: 0.25, instruction_following: 0.25, readability: 0.2 }));
    case 'race-score': {
      // Longer, better-cited reports score higher, as a judge reading them would find.
      const reports = [...user.matchAll(/<report(?: name="(\w+)")?>([\s\S]*?)<\/report>/g)].map((match) => ({ name: match[1] ?? 'target', text: match[2]! }));
      const scores = Object.fromEntries(
        reports.map((report) => {
          const citations = report.text.match(/\[\d+\]/g)?.length ?? 0;
          const base = Math.min(9, 3 + report.text.length / 1500 + citations / 6);
          const round = (value: number) => Math.round(value * 10) / 10;
          return [report.name, { comprehensiveness: round(base), insight: round(base - 0.5), instruction_following: round(Math.min(9, base + 0.5)), readability: round(base) }];
        }),
      );
      return plain(json(scores));
    }
    case 'fact-check': {
      const statement = /<statement>([\s\S]*?)<\/statement>/.exec(user)?.[1] ?? '';
      const page = /<page>([\s\S]*?)<\/page>/.exec(user)?.[1] ?? '';
      const supported = normalise(page).includes(normalise(statement).slice(0, 40)) || overlap(termsOf(statement), page) >= 0.8;
      return plain(json({ supported, reason: supported ? 'The page states it.' : 'The page does not say this.' }));
    }
    case 'other': {
      const picked = rank(sources, termsOf(user)).slice(0, 1);
      if (picked.length > 0) return plain(cite(picked[0]!.sentence, picked[0]!.n));
      return plain(isChinese(user) ? '好的，这是根据你的要求给出的简要回答。' : 'Here is a short answer to your request.');
    }
  }
}
