/** Byte sizes as people read them (1024-based units, as mail quotas are counted); the same in both languages. */
const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(value: unknown): string {
  const n = Number(value);
  if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return '';
  let size = n;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${Number.isInteger(size) ? size : size.toFixed(1)} ${units[unit]}`;
}
