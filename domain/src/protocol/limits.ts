/**
 * The limits and choices a request is checked by that the client checks too, before it sends: kept
 * apart from the zod schemas (`http/<area>.ts`, which use them) so that the client takes the values
 * without bringing zod along.
 */

/** Digits in a mailed code (sign-up, email change, password reset). */
export const CODE_LENGTH = 6;

export const FEEDBACK_TYPES = ['bug', 'feature', 'general'] as const;
export const FEEDBACK_MAX_LENGTH = 5000;

/** A cognition's editable fields and a collection's name and description. */
export const MAX_TITLE = 120;
export const MAX_SUMMARY = 500;
export const MAX_TAGS = 8;
export const MAX_TAG = 20;
export const MAX_COLLECTION_NAME = 100;
export const MAX_COLLECTION_DESCRIPTION = 500;
