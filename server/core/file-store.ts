/**
 * What a file store is (services.files, core/files.ts), apart from the stores themselves: the
 * database's and the S3 bucket's both implement it, and the bucket's is loaded only when chosen.
 */
import crypto from 'node:crypto';

export interface FileStore {
  kind: 'database' | 's3';
  /** Keeps `data` under `key`; a key already kept is left as it is (moving files may run twice). */
  put(key: string, data: Buffer): Promise<void>;
  /** The file, or undefined when there is none under this key. */
  get(key: string): Promise<Buffer | undefined>;
  has(key: string): Promise<boolean>;
  /** A file already gone is fine (removal may run twice). */
  remove(keys: string[]): Promise<void>;
}

/** A new key: 32 random hex digits, the shape ticket attachments' stored names always had. */
export const newFileKey = () => crypto.randomBytes(16).toString('hex');
