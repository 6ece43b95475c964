/** A page read for an agent: its readable text and a short excerpt. */
export interface FetchedPage {
  url: string;
  title: string;
  text: string;
  excerpt: string;
}

export interface PageFetcherPort {
  fetch(url: string, options: { signal?: AbortSignal }): Promise<FetchedPage>;
}
