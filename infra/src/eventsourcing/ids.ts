import { createHash, randomUUID } from 'node:crypto';

const NAMESPACE = Buffer.from('6c5ce7a1b2c34d5e8f90112233445566', 'hex');

/** A name-based (version 5) UUID: the same parts always give the same id, so a retried append is a no-op. */
export function deterministicId(...parts: Array<string | number>): string {
  const hash = createHash('sha1').update(NAMESPACE).update(parts.join('\u001f')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const newId = (): string => randomUUID();
