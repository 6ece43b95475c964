/** What a failure says to the user: an ApiError's catalogue text, else the error's own message. */
export const errorText = (error: unknown): string => (error instanceof Error ? ('userMessage' in error ? String((error as { userMessage: unknown }).userMessage) : error.message) : String(error));
