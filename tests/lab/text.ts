/** Text tools the lab's servers and scorers share: sentences, terms, tokens and a seeded random. */

const HAN = /\p{Script=Han}/u;

/** Sentences as a reader would cut them: after 。！？ and after . ! ? followed by a space. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[。！？!?])|(?<=\.)\s+(?=[A-Z0-9"“(])|\n+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

const EN_STOP = new Set('the and for are was were with that this from have has had been what which how why who whom into about over than then them they their there these those its it is in on of to a an as at by or be can could should would will do does did not no yes more most some any each such our your you we us since'.split(' '));

/** Search terms: English words of three letters or more (no stop words), and every pair of adjacent Han characters. */
export function termsOf(text: string): string[] {
  const terms = new Set<string>();
  for (const word of text.toLowerCase().match(/[a-z][a-z0-9-]{2,}|\d[\d.,]*%?/g) ?? []) if (!EN_STOP.has(word)) terms.add(word);
  for (const run of text.match(/\p{Script=Han}+/gu) ?? []) {
    for (let i = 0; i + 1 < run.length; i++) terms.add(run.slice(i, i + 2));
  }
  return [...terms];
}

/** Share of `terms` found in `text` (0–1). */
export function overlap(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0;
  const lower = text.toLowerCase();
  return terms.filter((term) => lower.includes(term)).length / terms.length;
}

/** Compared without spaces, punctuation of the two scripts alike, case, citation markers and links. */
export function normalise(text: string): string {
  return text
    .replace(/\[\[(\d+)\]\]\([^)]*\)/g, '')
    .replace(/\[\d+\]/g, '')
    .replace(/[\s*_`#>]/g, '')
    .replace(/[，。！？；：、“”‘’（）《》…,.!?;:"'()]/g, '')
    .toLowerCase();
}

/** Tokens as the scripted model counts them: a Han character each, four other characters each. */
export function tokenCount(text: string): number {
  let han = 0;
  for (const char of text) if (HAN.test(char)) han++;
  return han + Math.ceil((text.length - han) / 4);
}

/** A small, well-known seeded generator (mulberry32), so a run's mistakes repeat exactly. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const isChinese = (text: string): boolean => {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const words = text.match(/[A-Za-z]{2,}/g)?.length ?? 0;
  return han / 2 >= words && han > 0;
};
