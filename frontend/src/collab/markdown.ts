import { defaultMarkdownParser, MarkdownParser } from 'prosemirror-markdown';
import type { Node } from 'prosemirror-model';
import { collabSchema } from '@scriptorium/domain/protocol/collabSchema';
import { serializeCanvas } from '../panels/canvas/canvasMarkdown.ts';

/** The canvas's own Markdown reading, into the shared schema (same nodes and attributes), so a report co-edits as it reads. */
const parser = new MarkdownParser(collabSchema, defaultMarkdownParser.tokenizer, defaultMarkdownParser.tokens);

export const reportToDoc = (markdown: string): Node => parser.parse(markdown);

/** Written back as the canvas writes Markdown (citations `[1]`, bullets `-`), so a saved co-edit differs only where people typed. */
export const docToReport = (doc: Node): string => serializeCanvas(doc);
