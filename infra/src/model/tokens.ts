import type { ChatMessage } from './port.ts';

// Han, kana, hangul and full-width punctuation: tokenizers spend about one token per character.
const wideChar = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/gu;

/** Rough token count: one per CJK character, one per four other characters. */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  const wide = text.match(wideChar)?.length ?? 0;
  const narrow = text.replace(wideChar, '').length;
  return wide + Math.ceil(narrow / 4);
}

// Chat formats wrap each message in a few tokens of role markers.
const perMessageOverhead = 4;

export function estimateMessageTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + perMessageOverhead + estimateTokens(message.content), 0);
}
