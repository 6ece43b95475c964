import { searchResultsMessage } from '@scriptorium/domain/conversation/wire';
import { citedIn, localMaterialOf } from '@scriptorium/domain/protocol/sources';
import type { MessageDoc } from '@scriptorium/projections/messages';

/** The tool that searches the owner's own notes, uploads and cognitions. */
const OWN_MATERIAL_TOOL = 'local_search';

type Content = MessageDoc['contents'][number];

/** The cognitions a conversation's replies recommended, to learn which of them are public. */
export const recommendedCognitions = (messages: MessageDoc[]): string[] =>
  messages.flatMap((message) =>
    message.contents.flatMap((content) => (content.content_type === 'cognition_recommendation' ? content.items.map((item) => item.id) : [])),
  );

/**
 * A reply's items as a public link shows them when the owner kept private material out: what the
 * search of the owner's own material found is dropped, except the sources the report cites. That
 * search is a platform tool, or a search round's when no web search is on (its results then carry
 * `<kind>:<id>` addresses). A recommended cognition stays only if it is public. Everything else is
 * as written.
 */
export function withoutPrivate(content: Content, report: string, publicCognitions: ReadonlySet<string>): Content {
  if (content.content_type === 'platform_tools_results') {
    const results = Object.fromEntries(Object.entries(content.results_by_tool).filter(([tool]) => tool !== OWN_MATERIAL_TOOL));
    const sources = content.sources.filter((source) => source.tool !== OWN_MATERIAL_TOOL || (source.url !== undefined && citedIn(report, source.url, source.title)));
    return { ...content, results_by_tool: results, sources };
  }
  if (content.content_type === 'web_search_results') {
    const results = content.results.filter((result) => !localMaterialOf(result.url) || citedIn(report, result.url, result.title));
    return { ...content, results, message: searchResultsMessage(results.length) };
  }
  if (content.content_type === 'cognition_recommendation') {
    return { ...content, items: content.items.filter((item) => publicCognitions.has(item.id)) };
  }
  return content;
}
