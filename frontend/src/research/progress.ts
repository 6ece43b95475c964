/**
 * The research agent reports progress in the spec's English words (info items, result messages);
 * the client shows them in the user's language. Unknown text is shown as it came.
 */
type ProgressKey =
  | 'stream.planning'
  | 'stream.planGenerated'
  | 'stream.makingClarification'
  | 'stream.clarificationGenerated'
  | 'stream.browsing'
  | 'stream.browsingFinished'
  | 'stream.scraping'
  | 'stream.toolsCompleted'
  | 'stream.scrapedCount'
  | 'stream.searchResults';

export interface ProgressText {
  key: ProgressKey;
  params?: { count: number };
}

const fixed: Record<string, ProgressKey> = {
  'Planing .....': 'stream.planning',
  'Plan Generated': 'stream.planGenerated',
  'Making Clarification Questions .....': 'stream.makingClarification',
  'Clarification Questions Generated': 'stream.clarificationGenerated',
  'Browsing Webpages .....': 'stream.browsing',
  'Browsing Webpages Finished': 'stream.browsingFinished',
  'Scraping Webpages .....': 'stream.scraping',
  'Platform Tools Execution Completed': 'stream.toolsCompleted',
};

const counted: Array<[RegExp, ProgressKey]> = [
  [/^Get Information from (\d+) Webpages\.*$/, 'stream.scrapedCount'],
  [/^Have got (\d+) Correlated Web Search Results$/, 'stream.searchResults'],
];

export function progressText(text: string): ProgressText | null {
  const trimmed = text.trim();
  const key = fixed[trimmed];
  if (key) return { key };
  for (const [pattern, countedKey] of counted) {
    const match = pattern.exec(trimmed);
    if (match) return { key: countedKey, params: { count: Number(match[1]) } };
  }
  return null;
}
