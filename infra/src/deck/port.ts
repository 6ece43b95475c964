/**
 * The DeckReader port: a presentation file in, its slides out (in show order), or a coded refusal
 * before anything is kept. Slide text is what the audience reads; notes are the speaker's.
 */

export interface DeckSlide {
  /** 1-based position in the show, as presentation.xml orders it (not the part's file name). */
  n: number;
  /** The title placeholder's text, or null when the slide has none (or it is empty). */
  title: string | null;
  /** The other paragraphs on the slide, in reading order, empty ones dropped. */
  paragraphs: string[];
  notes: string;
  images: number;
}

export interface Deck {
  slides: DeckSlide[];
}

/** Why a deck was refused; the HTTP layer maps each reason to a status. */
export type DeckReason = 'too_large' | 'unsupported_type' | 'unreadable' | 'empty';

export class DeckError extends Error {
  constructor(
    readonly reason: DeckReason,
    readonly code: string,
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(code);
    this.name = 'DeckError';
  }
}

export interface DeckReader {
  /** Checks the name, type and bytes, then reads the slides; throws DeckError on anything it will not take. */
  read(bytes: Uint8Array, file: { filename: string; mimeType?: string }): Promise<Deck>;
}
