/**
 * The BlobStore port: opaque bytes under a key (uploads, extracted text, exports). Shaped like an
 * S3 bucket (content type plus string metadata per object) so that an S3-compatible adapter is a thin
 * mapping later; the embedded adapter is a local directory.
 */
import type { Readable } from 'node:stream';

export interface PutOptions {
  contentType: string;
  /** Small string pairs kept with the object, as S3 user metadata. */
  metadata?: Record<string, string>;
}

export interface PutResult {
  key: string;
  size: number;
  /** Lower-case hex digest of the stored bytes. */
  sha256: string;
}

export interface BlobInfo extends PutResult {
  contentType: string;
  metadata: Record<string, string>;
  createdAt: string;
}

export type BlobBody = Uint8Array | Readable | AsyncIterable<Uint8Array>;

export interface BlobStore {
  /** Stores the whole body or nothing: a reader never sees a partly written object. */
  put(key: string, body: BlobBody, options: PutOptions): Promise<PutResult>;
  /** Throws BlobNotFoundError for a missing key. */
  get(key: string): Promise<Readable>;
  stat(key: string): Promise<BlobInfo | null>;
  /** Returns whether an object was there. */
  delete(key: string): Promise<boolean>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no blob under ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export class InvalidBlobKeyError extends Error {
  constructor(readonly key: string, reason: string) {
    super(`invalid blob key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidBlobKeyError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_KEY_LENGTH = 512;
const MAX_DEPTH = 8;

/**
 * Keys are `/`-separated segments of letters, digits, `.`, `_` and `-`, none starting with a dot.
 * That rules out `..`, absolute paths, backslashes and hidden names, so a key can never leave the
 * store's root on any file system, and the adapter's own dot-directories cannot be addressed.
 */
export function assertBlobKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) throw new InvalidBlobKeyError(key, `length must be 1 to ${MAX_KEY_LENGTH}`);
  const segments = key.split('/');
  if (segments.length > MAX_DEPTH) throw new InvalidBlobKeyError(key, `at most ${MAX_DEPTH} segments`);
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) throw new InvalidBlobKeyError(key, `segment ${JSON.stringify(segment)} must match ${SEGMENT}`);
  }
}
