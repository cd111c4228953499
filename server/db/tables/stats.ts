/** Statistics: the dashboard's daily summary. */
import type { Generated } from 'kysely';

/** One figure of one UTC day (the dashboard's summary, kept by the stats.daily schedule). */
export interface StatDailyRow {
  day: string;
  metric: string;
  dim: Generated<string>;
  value: number;
}

export interface StatsTables {
  stat_daily: StatDailyRow;
}
