/** Storage: capacity blocks and the notices sent about them. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

export interface StorageRow {
  id: Id;
  owner_id: number;
  size: number;
  source: 'grant' | 'order';
  label: string;
  expires_at: Timestamp | null;
  /** The order that bought (or last renewed) the block; null for grants. */
  order_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the block's next reminder or expiry notice is due (0010). */
  next_notice_at: Timestamp | null;
}

export interface StorageNoticeRow {
  id: Id;
  storage_id: number;
  owner_id: number;
  kind: 'reminder' | 'expired';
  days: number;
  expires_at: Timestamp;
  shortfall: Generated<number>;
  created_at: Timestamp;
}

export interface StorageTables {
  storage: StorageRow;
  storage_notice: StorageNoticeRow;
}
