/** Why a file was refused; the HTTP layer maps each reason to a status. */
export type ExtractReason = 'too_large' | 'unsupported_type' | 'type_mismatch' | 'encoding' | 'encrypted' | 'unreadable' | 'empty';

/**
 * A refusal whose message is written for the person who uploaded the file; `code` and `params` name it
 * in the kernel's error catalogue, which the HTTP layer answers from.
 */
export class ExtractError extends Error {
  constructor(
    readonly reason: ExtractReason,
    message: string,
    readonly code: string,
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(message);
    this.name = 'ExtractError';
  }
}
