/** Column types every table shares. */
import type { Generated } from 'kysely';

export type Id = Generated<number>;
/** ISO 8601 UTC: sorts as text on both databases. */
export type Timestamp = string;
