/**
 * Finding cognitions by a query typed into the search box. The read stores hold no text index
 * (SQLite JSON documents here, MongoDB when scaled out), and a library is thousands of entries, not
 * millions, so candidates are scored here: each query word must appear, and a run of Chinese with
 * no spaces counts by the share of its two-character pieces the text contains.
 */

const han = /\p{Script=Han}/u;

/** The words of a query, lower-cased; Chinese runs become their two-character pieces. */
function pieces(query: string): string[][] {
  return query
    .toLowerCase()
    .split(/[\s,，、;；]+/)
    .filter(Boolean)
    .map((word) => {
      const chars = Array.from(word);
      if (!han.test(word) || chars.length <= 2) return [word];
      return chars.slice(0, -1).map((char, index) => char + chars[index + 1]!);
    });
}

/** 0 when the text does not match; higher is better. A title match counts double. */
export function matchScore(query: string, fields: { title: string; body: string }): number {
  const words = pieces(query);
  if (words.length === 0) return 0;
  const title = fields.title.toLowerCase();
  const body = fields.body.toLowerCase();
  let score = 0;
  for (const word of words) {
    const inTitle = word.filter((piece) => title.includes(piece)).length / word.length;
    const inAny = word.filter((piece) => title.includes(piece) || body.includes(piece)).length / word.length;
    // Most of a Chinese phrase must be there; a stray shared character pair is not a match.
    if (inAny < (word.length > 1 ? 0.6 : 1)) return 0;
    score += inAny + inTitle;
  }
  return score;
}
