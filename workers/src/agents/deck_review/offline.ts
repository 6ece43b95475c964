import { REVIEW_ASPECTS, type AspectReview, type Rating, type ReviewAspect, type ReviewLanguage, type SlideContent, type SlideReview } from '@scriptorium/domain/protocol/deckReview';
import type { SlideOutcome } from '@scriptorium/domain/deckreview/deckreview';

/**
 * The offline engine's review: rules a careful colleague applies without reading for meaning (too
 * much text, a missing title, titles that disagree in case or punctuation, a repeated slide or
 * word, no speaker notes). Used when no model is configured, and labelled as such wherever shown.
 */

/** Words a slide can carry before the audience reads instead of listening (CJK: characters ÷ 2). */
export const MAX_WORDS = 60;
/** A bullet longer than this is a sentence to be read, not a point. */
export const MAX_BULLET_WORDS = 22;
export const MAX_BULLETS = 6;

type Severity = 'minor' | 'major';
interface Finding {
  aspect: ReviewAspect;
  severity: Severity;
  text: string;
}

const PENALTY: Record<Severity, number> = { minor: 8, major: 18 };
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;
const TRAILING_PUNCTUATION = /[。.!！?？:：;；,，、]$/;

/** Latin words plus CJK characters counted two to a word, so a Chinese and an English slide compare. */
export function wordCount(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const latin = text.replace(CJK, ' ').match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
  return latin + Math.ceil(cjk / 2);
}

/** Words typed twice in a row ("the the"), and CJK words of two or more characters doubled ("稳定稳定"). */
export function repeatedWords(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\b([\p{L}]{2,})\s+\1\b/giu)) found.add(match[1]!.toLowerCase());
  for (const match of text.matchAll(/([\u3400-\u9fff]{2,4})\1/gu)) found.add(match[1]!);
  return [...found];
}

type TitleStyle = 'title' | 'sentence' | 'other';

/** English titles only: "Next Steps For Growth" (title case) or "Next steps for growth" (sentence case). */
export function titleStyle(title: string): TitleStyle {
  const words = title.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [];
  if (words.length < 2 || title.match(CJK)) return 'other';
  const [, ...rest] = words.filter((word) => word.length > 3);
  if (rest.length === 0) return 'other';
  if (rest.every((word) => /^[A-Z]/.test(word))) return 'title';
  if (rest.every((word) => /^[a-z]/.test(word))) return 'sentence';
  return 'other';
}

const majority = <T>(values: T[]): T | undefined => {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const [top, second] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return top && (!second || top[1] > second[1]) ? top[0] : undefined;
};

const fingerprint = (slide: SlideContent) => [slide.title ?? '', ...slide.paragraphs].join('\n').replace(/\s+/g, ' ').trim().toLowerCase();
const collapseRepeats = (text: string) => text.replace(/\b([\p{L}]{2,})\s+\1\b/giu, '$1').replace(/([\u3400-\u9fff]{2,4})\1/gu, '$1');

const TEXTS = {
  zh: {
    tooManyWords: (words: number) => `文字过多（约 ${words} 词），观众会去读而不是听；保留要点，细节放进备注`,
    tooManyBullets: (count: number) => `要点有 ${count} 条，超过 ${MAX_BULLETS} 条，建议拆成两页或合并`,
    longBullet: (text: string) => `“${text.slice(0, 24)}…”太长，像一段话而不是一个要点`,
    noTitle: '缺少标题，观众不知道这一页要说明什么',
    empty: '这一页没有任何文字或图片',
    titlePunctuation: (title: string) => `标题“${title}”以标点结尾，与其他页的标题不一致`,
    titleStyle: (expected: TitleStyle) => `标题大小写与多数页不一致（多数页使用${expected === 'title' ? '每词首字母大写' : '句首大写'}）`,
    duplicate: (n: number) => `与第 ${n} 页内容相同，重复的幻灯片`,
    duplicateBullet: (text: string) => `要点“${text.slice(0, 24)}”出现了不止一次`,
    repeated: (words: string[]) => `疑似重复输入：${words.map((word) => `“${word}”`).join('、')}`,
    noNotes: '没有演讲者备注，讲解时容易遗漏要点',
    titlePlaceholder: '[补充标题]',
    slide: (n: number) => `第 ${n} 页`,
    list: (ns: number[]) => ns.map((n) => `第 ${n} 页`).join('、'),
    aspects: { clarity: '清晰度', structure: '结构', consistency: '一致性', spelling: '拼写' } as Record<ReviewAspect, string>,
    needsWork: (aspect: string, ns: number[]) => `${aspect}需要改进：${ns.map((n) => `第 ${n} 页`).join('、')}`,
    average: (count: number, score: number) => `${count} 页幻灯片平均得分 ${score}`,
    failed: (ns: number[]) => `${ns.map((n) => `第 ${n} 页`).join('、')}未能评审，不计入得分`,
    allGood: '各页在清晰度、结构、一致性和拼写上都没有明显问题',
  },
  en: {
    tooManyWords: (words: number) => `Too much text (about ${words} words): the audience will read instead of listen; keep the points and move detail to the notes`,
    tooManyBullets: (count: number) => `${count} bullet points, more than ${MAX_BULLETS}: split the slide or merge points`,
    longBullet: (text: string) => `"${text.slice(0, 32)}…" is a paragraph, not a point`,
    noTitle: 'No title: the audience cannot tell what this slide is for',
    empty: 'The slide has no text and no images',
    titlePunctuation: (title: string) => `The title "${title}" ends in punctuation, unlike the other titles`,
    titleStyle: (expected: TitleStyle) => `Title case differs from most slides (they use ${expected === 'title' ? 'Title Case' : 'Sentence case'})`,
    duplicate: (n: number) => `Same content as slide ${n}: a duplicate slide`,
    duplicateBullet: (text: string) => `The point "${text.slice(0, 32)}" appears more than once`,
    repeated: (words: string[]) => `Possibly typed twice: ${words.map((word) => `"${word}"`).join(', ')}`,
    noNotes: 'No speaker notes: points are easily missed while presenting',
    titlePlaceholder: '[Add a title]',
    slide: (n: number) => `Slide ${n}`,
    list: (ns: number[]) => `slide${ns.length > 1 ? 's' : ''} ${ns.join(', ')}`,
    aspects: { clarity: 'Clarity', structure: 'Structure', consistency: 'Consistency', spelling: 'Spelling' } as Record<ReviewAspect, string>,
    needsWork: (aspect: string, ns: number[]) => `${aspect} needs work on slide${ns.length > 1 ? 's' : ''} ${ns.join(', ')}`,
    average: (count: number, score: number) => `${count} slides scored ${score} on average`,
    failed: (ns: number[]) => `Slide${ns.length > 1 ? 's' : ''} ${ns.join(', ')} could not be reviewed and ${ns.length > 1 ? 'are' : 'is'} not scored`,
    allGood: 'No clear problems of clarity, structure, consistency or spelling on any slide',
  },
} as const;

/** What the whole deck tells about one slide: the majority's title habits and earlier identical slides. */
interface DeckContext {
  punctuated: boolean | undefined;
  style: TitleStyle | undefined;
  firstSeen: Map<string, number>;
}

export function deckContext(slides: readonly SlideContent[]): DeckContext {
  const titles = slides.map((slide) => slide.title).filter((title): title is string => !!title);
  const firstSeen = new Map<string, number>();
  for (const slide of slides) {
    const key = fingerprint(slide);
    if (key && !firstSeen.has(key)) firstSeen.set(key, slide.n);
  }
  const styles = titles.map(titleStyle).filter((style) => style !== 'other');
  return { punctuated: majority(titles.map((title) => TRAILING_PUNCTUATION.test(title))), style: majority(styles), firstSeen };
}

function findings(slide: SlideContent, context: DeckContext, language: ReviewLanguage): Finding[] {
  const text = TEXTS[language];
  const out: Finding[] = [];
  const body = slide.paragraphs.join('\n');
  if (!slide.title && slide.paragraphs.length === 0 && slide.images === 0) out.push({ aspect: 'clarity', severity: 'major', text: text.empty });
  const words = wordCount(`${slide.title ?? ''}\n${body}`);
  if (words > MAX_WORDS) out.push({ aspect: 'clarity', severity: words > MAX_WORDS * 2 ? 'major' : 'minor', text: text.tooManyWords(words) });
  const long = slide.paragraphs.find((paragraph) => wordCount(paragraph) > MAX_BULLET_WORDS);
  if (long) out.push({ aspect: 'clarity', severity: 'minor', text: text.longBullet(long) });
  if (!slide.title) out.push({ aspect: 'structure', severity: 'major', text: text.noTitle });
  if (slide.paragraphs.length > MAX_BULLETS) out.push({ aspect: 'structure', severity: 'minor', text: text.tooManyBullets(slide.paragraphs.length) });
  if (!slide.notes.trim()) out.push({ aspect: 'structure', severity: 'minor', text: text.noNotes });
  if (slide.title && context.punctuated === false && TRAILING_PUNCTUATION.test(slide.title)) out.push({ aspect: 'consistency', severity: 'minor', text: text.titlePunctuation(slide.title) });
  if (slide.title && context.style) {
    const style = titleStyle(slide.title);
    if (style !== 'other' && style !== context.style) out.push({ aspect: 'consistency', severity: 'minor', text: text.titleStyle(context.style) });
  }
  const first = context.firstSeen.get(fingerprint(slide));
  if (first !== undefined && first !== slide.n) out.push({ aspect: 'consistency', severity: 'major', text: text.duplicate(first) });
  const seen = new Set<string>();
  for (const paragraph of slide.paragraphs) {
    const key = paragraph.trim().toLowerCase();
    if (seen.has(key)) {
      out.push({ aspect: 'consistency', severity: 'minor', text: text.duplicateBullet(paragraph) });
      break;
    }
    seen.add(key);
  }
  const repeated = repeatedWords(`${slide.title ?? ''}\n${body}`);
  if (repeated.length > 0) out.push({ aspect: 'spelling', severity: 'minor', text: text.repeated(repeated) });
  return out;
}

function aspectReview(found: Finding[], aspect: ReviewAspect): AspectReview {
  const mine = found.filter((finding) => finding.aspect === aspect);
  const rating: Rating = mine.some((finding) => finding.severity === 'major') ? 'poor' : mine.length > 0 ? 'fair' : 'good';
  return { rating, points: mine.map((finding) => finding.text) };
}

/** The slide as the rules would fix it: a title where there is none, no duplicate points or doubled words. */
function rewrite(slide: SlideContent, found: Finding[], language: ReviewLanguage): string {
  if (found.every((finding) => finding.aspect === 'structure' && finding.text === TEXTS[language].noNotes)) return '';
  const title = slide.title ? collapseRepeats(slide.title).replace(TRAILING_PUNCTUATION, '') : TEXTS[language].titlePlaceholder;
  const points = [...new Set(slide.paragraphs.map((paragraph) => collapseRepeats(paragraph).trim()))];
  return [title, ...points.map((point) => `- ${point}`)].join('\n');
}

export function offlineSlideReview(slide: SlideContent, context: DeckContext, language: ReviewLanguage): SlideReview {
  const found = findings(slide, context, language);
  const score = Math.max(0, 100 - found.reduce((sum, finding) => sum + PENALTY[finding.severity], 0));
  return {
    score,
    clarity: aspectReview(found, 'clarity'),
    structure: aspectReview(found, 'structure'),
    consistency: aspectReview(found, 'consistency'),
    spelling: aspectReview(found, 'spelling'),
    rewrite: rewrite(slide, found, language),
  };
}

/**
 * The deck's score and the reasons for it, from the slides' results whichever engine gave them:
 * the mean of the reviewed slides, and which slides each aspect most needs work on.
 */
export function overallReview(slides: readonly SlideContent[], outcomes: Readonly<Record<number, SlideOutcome>>, language: ReviewLanguage): { score: number; reasons: string[] } {
  const text = TEXTS[language];
  const reviewed = slides.flatMap((slide) => {
    const outcome = outcomes[slide.n];
    return outcome?.status === 'reviewed' ? [{ n: slide.n, review: outcome.review }] : [];
  });
  const failed = slides.filter((slide) => outcomes[slide.n]?.status === 'failed').map((slide) => slide.n);
  const score = reviewed.length === 0 ? 0 : Math.round(reviewed.reduce((sum, slide) => sum + slide.review.score, 0) / reviewed.length);
  const reasons = [text.average(reviewed.length, score)];
  for (const aspect of REVIEW_ASPECTS) {
    const weak = reviewed.filter((slide) => slide.review[aspect].rating !== 'good').map((slide) => slide.n);
    if (weak.length > 0) reasons.push(text.needsWork(text.aspects[aspect], weak));
  }
  if (reasons.length === 1 && reviewed.length > 0) reasons.push(text.allGood);
  if (failed.length > 0) reasons.push(text.failed(failed));
  return { score, reasons };
}
