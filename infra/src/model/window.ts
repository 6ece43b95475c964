import { withContext } from './openai.ts';
import type { ChatMessage, ContextDocument, ModelRequest } from './port.ts';
import type { ModelProfile } from './profile.ts';
import { estimateMessageTokens, estimateTokens } from './tokens.ts';

/**
 * `estimateTokens` counts a CJK character as one token and four other characters as one; real
 * tokenizers run over both on some text (rare characters, digits, URLs, code). The margin is what
 * a prompt is measured with on top, so a prompt that fits by the estimate fits by the provider's count.
 */
const WIDE_MARGIN = 0.25;
const NARROW_MARGIN = 0.35;
const wideChar = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/gu;

/** The least a cut document keeps of its head: enough to say what it is about. */
const DOCUMENT_HEAD_TOKENS = 120;
/** What a cut leaves in the text where it took something out; the numbering of the sources stays. */
export const CUT_MARK = ' […]';
/** The least answer worth asking for when the prompt leaves little room: an eighth of the window, at least 512. */
const outputFloor = (profile: ModelProfile) => Math.max(512, Math.floor(profile.contextWindow / 8));

/** Tokens the prompt will take as sent (messages, the numbered sources), with the safety margin. */
export function measurePrompt(request: Pick<ModelRequest, 'messages' | 'context'>): number {
  const sent = withContext(request.messages, request.context);
  return estimateMessageTokens(sent) + sent.reduce((sum, message) => sum + margin(message.content), 0);
}

function margin(text: string): number {
  const wide = text.match(wideChar)?.length ?? 0;
  const narrow = text.length - wide;
  return Math.ceil(wide * WIDE_MARGIN + (narrow / 4) * NARROW_MARGIN);
}

/** A text's tokens as the window counts them: the estimate and its margin. */
export const measure = (text: string): number => estimateTokens(text) + margin(text);

export interface WindowCuts {
  /** The answer's cap, lowered from `from` to `to`, when it was. */
  maxTokens?: { from: number; to: number };
  /** The context documents shortened to their head, by index; each stays in its place and numbering. */
  documents: number[];
  /** The messages whose middle was taken out, by index. */
  messages: number[];
  /** Tokens still over the window after every cut (a prompt whose fixed parts alone are too long): the provider will refuse it. */
  over: number;
}

export interface Fitted<R> {
  request: R & { maxTokens: number };
  cuts: WindowCuts;
}

/**
 * Makes a request fit its model: the answer's cap no more than the profile's output cap (the
 * profile's cap when the call asked none), and prompt plus cap within the context window. When they
 * are not, first the cap is lowered, down to a floor; then the context documents are cut, the
 * longest first, each keeping its head and its number; then the middle of the longest message goes.
 * Pure: the same request and profile always give the same result.
 */
export function fitToWindow<R extends Pick<ModelRequest, 'messages' | 'context' | 'maxTokens'>>(request: R, profile: ModelProfile): Fitted<R> {
  const cuts: WindowCuts = { documents: [], messages: [], over: 0 };
  const asked = Math.min(request.maxTokens ?? profile.maxOutputTokens, profile.maxOutputTokens);
  let maxTokens = asked;
  let context = request.context;
  let messages = request.messages;
  const over = () => measurePrompt({ messages, ...(context && { context }) }) + maxTokens - profile.contextWindow;

  let excess = over();
  if (excess > 0) {
    maxTokens = Math.max(Math.min(asked, outputFloor(profile)), maxTokens - excess);
    if (maxTokens < asked) cuts.maxTokens = { from: asked, to: maxTokens };
    excess = over();
  }
  // Estimates of the parts do not add up exactly to the whole's: each pass re-measures.
  for (let pass = 0; excess > 0 && context && pass < 4; pass++) {
    const shortened = shortenDocuments(context, excess);
    if (!shortened) break;
    context = shortened.context;
    for (const index of shortened.cut) if (!cuts.documents.includes(index)) cuts.documents.push(index);
    excess = over();
  }
  for (let pass = 0; excess > 0 && pass < 4; pass++) {
    const shortened = shortenLongestMessage(messages, excess);
    if (!shortened) break;
    messages = shortened.messages;
    if (!cuts.messages.includes(shortened.index)) cuts.messages.push(shortened.index);
    excess = over();
  }
  cuts.over = Math.max(0, excess);
  return { request: { ...request, messages, ...(context && { context }), maxTokens }, cuts };
}

/**
 * Takes `excess` tokens off the documents, the longest first: all are levelled down to one length
 * (never below their head), so a long page gives more than a short one and none is dropped.
 */
function shortenDocuments(context: readonly ContextDocument[], excess: number): { context: ContextDocument[]; cut: number[] } | undefined {
  const sizes = context.map((doc) => measure(doc.text));
  const spare = sizes.reduce((sum, size) => sum + Math.max(0, size - DOCUMENT_HEAD_TOKENS), 0);
  if (spare <= 0) return undefined;
  // The highest level that frees `excess`: a binary search over the longest document's size.
  let low = DOCUMENT_HEAD_TOKENS;
  let high = Math.max(...sizes);
  while (low < high) {
    const level = Math.ceil((low + high) / 2);
    const freed = sizes.reduce((sum, size) => sum + Math.max(0, size - level), 0);
    if (freed >= excess) low = level;
    else high = level - 1;
  }
  const cut: number[] = [];
  const shortened = context.map((doc, index) => {
    if (sizes[index]! <= low) return doc;
    cut.push(index);
    return { ...doc, text: head(doc.text, low) };
  });
  return cut.length === 0 ? undefined : { context: shortened, cut };
}

/** The longest message with its middle taken out, head and tail kept (a question is often at a prompt's end). */
function shortenLongestMessage(messages: readonly ChatMessage[], excess: number): { messages: ChatMessage[]; index: number } | undefined {
  const sizes = messages.map((message) => measure(message.content));
  const index = sizes.indexOf(Math.max(...sizes));
  const message = messages[index];
  if (!message) return undefined;
  const keep = sizes[index]! - excess - measure(CUT_MARK);
  if (keep <= 0) return undefined;
  const text = message.content;
  const half = Math.floor(keep / 2);
  const headLength = longestWithin(text.length, (n) => measure(text.slice(0, n)) <= half);
  const rest = text.slice(headLength);
  const tailLength = longestWithin(rest.length, (n) => measure(rest.slice(rest.length - n)) <= half);
  const content = `${text.slice(0, headLength).trimEnd()}${CUT_MARK}\n\n${rest.slice(rest.length - tailLength).trimStart()}`;
  if (content.length >= text.length) return undefined;
  return { messages: messages.map((m, i) => (i === index ? { ...m, content } : m)), index };
}

/** The longest start of `text` within `tokens` (the mark included), ended by the cut mark. */
function head(text: string, tokens: number): string {
  const length = longestWithin(text.length, (n) => measure(text.slice(0, n)) + measure(CUT_MARK) <= tokens);
  return `${text.slice(0, length).trimEnd()}${CUT_MARK}`;
}

/** The largest n in [0, max] with fits(n), for a fits that holds up to some n and not after. */
function longestWithin(max: number, fits: (n: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}
