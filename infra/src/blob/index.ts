import { join } from 'node:path';
import { LocalBlobStore } from './local.ts';
import type { BlobStore } from './port.ts';

/** A local directory: `BLOB_DIR` when set, otherwise `<DATA_DIR>/blobs`. */
export function createBlobStore(config: { DATA_DIR: string; BLOB_DIR?: string | undefined }): BlobStore {
  return new LocalBlobStore(config.BLOB_DIR ?? join(config.DATA_DIR, 'blobs'));
}
