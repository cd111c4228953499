/** API keys: customers' keys for /api/admin and operators' for /api/manage, kept as a hash. */
import type { Id, Timestamp } from './columns.js';

export interface ApiKeyRow {
  id: Id;
  /** The one area the key works in: 'admin' (a customer's login) or 'manage' (an operator). */
  area: 'admin' | 'manage';
  /** The customer (tenant) of a customer key; null for an operator's. */
  customer_id: number | null;
  /** The customer login (customer or team member) that made it and whose rights it has. */
  user_id: number | null;
  /** The operator that made it. */
  admin_id: number | null;
  name: string;
  /** The key's first characters, shown in lists so that people can tell their keys apart. */
  prefix: string;
  key_hash: string;
  access: 'read' | 'write';
  /** JSON array of IP addresses and CIDR ranges; empty: any. */
  allowed_ips: string;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  created_ip: string;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
}

export interface ApiKeyTables {
  api_key: ApiKeyRow;
}
