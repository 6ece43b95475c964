import { createHash, randomBytes } from 'node:crypto';

const NAMESPACE = Buffer.from('6c5ce7a1b2c34d5e8f90112233445566', 'hex');

/** A name-based (version 5) UUID: the same parts always give the same id, so a retried append is a no-op. */
export function deterministicId(...parts: Array<string | number>): string {
  const hash = createHash('sha1').update(NAMESPACE).update(parts.join('\u001f')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A time-ordered (version 7) UUID. New ids land at the end of the event store's id index instead of
 * at random pages, which keeps appends fast as the log grows.
 */
export function newId(): string {
  const bytes = randomBytes(16);
  const ms = Date.now();
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
