/** Files kept in the database (server/core/files.ts): one row per file, by key. */
import type { Timestamp } from './columns.js';

export interface StoredFileRow {
  key: string;
  data: Buffer;
  size: number;
  created_at: Timestamp;
}

export interface FilesTables {
  stored_file: StoredFileRow;
}
