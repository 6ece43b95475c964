import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertBlobKey, BlobNotFoundError, type BlobBody, type BlobInfo, type BlobStore, type PutOptions, type PutResult } from './port.ts';

interface StoredMeta {
  size: number;
  sha256: string;
  contentType: string;
  metadata: Record<string, string>;
  createdAt: string;
}

/**
 * Objects as files under `root/<key>`, their metadata as JSON under `root/.meta/<key>.json`, and
 * writes staged in `root/.tmp` so that a rename (atomic within one file system) publishes them.
 * Keys cannot start a segment with a dot, so neither hidden directory is reachable through a key.
 */
export class LocalBlobStore implements BlobStore {
  private readonly tmpDir: string;
  private readonly metaDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = join(root, '.tmp');
    this.metaDir = join(root, '.meta');
  }

  async put(key: string, body: BlobBody, options: PutOptions): Promise<PutResult> {
    assertBlobKey(key);
    await mkdir(this.tmpDir, { recursive: true });
    const staged = join(this.tmpDir, randomUUID());
    const stagedMeta = `${staged}.json`;
    const hash = createHash('sha256');
    let size = 0;
    try {
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      });
      const source = body instanceof Uint8Array ? Readable.from([body]) : Readable.from(body);
      const out = createWriteStream(staged, { flags: 'wx' });
      await pipeline(source, counter, out);
      await syncFile(staged);
      const sha256 = hash.digest('hex');
      const meta: StoredMeta = { size, sha256, contentType: options.contentType, metadata: { ...options.metadata }, createdAt: new Date().toISOString() };
      await writeFile(stagedMeta, JSON.stringify(meta), { flag: 'wx' });
      await syncFile(stagedMeta);
      // Metadata first: stat answers only when the data file exists, so a crash between the two
      // renames leaves an invisible metadata file rather than an object without its content type.
      await this.publish(stagedMeta, this.metaPath(key));
      await this.publish(staged, this.dataPath(key));
      return { key, size, sha256 };
    } finally {
      await Promise.all([rm(staged, { force: true }), rm(stagedMeta, { force: true })]);
    }
  }

  async get(key: string): Promise<Readable> {
    assertBlobKey(key);
    try {
      const handle = await open(this.dataPath(key), 'r');
      return handle.createReadStream();
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    assertBlobKey(key);
    try {
      const [file, raw] = await Promise.all([stat(this.dataPath(key)), readFile(this.metaPath(key), 'utf8')]);
      if (!file.isFile()) return null;
      const meta = JSON.parse(raw) as StoredMeta;
      return { key, size: meta.size, sha256: meta.sha256, contentType: meta.contentType, metadata: meta.metadata, createdAt: meta.createdAt };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<boolean> {
    assertBlobKey(key);
    const existed = await unlinkIfPresent(this.dataPath(key));
    await unlinkIfPresent(this.metaPath(key));
    return existed;
  }

  private dataPath(key: string): string {
    return join(this.root, ...key.split('/'));
  }

  private metaPath(key: string): string {
    return `${join(this.metaDir, ...key.split('/'))}.json`;
  }

  private async publish(from: string, to: string): Promise<void> {
    await mkdir(dirname(to), { recursive: true });
    await rename(from, to);
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function unlinkIfPresent(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

const isMissing = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};
