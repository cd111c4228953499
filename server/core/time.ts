/** Timestamps are ISO 8601 UTC strings: they sort as text on SQLite and PostgreSQL alike. */
export const now = () => new Date().toISOString();
export const inMinutes = (minutes: number, from = Date.now()) => new Date(from + minutes * 60_000).toISOString();
