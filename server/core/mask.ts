/** Values that must never be shown to operators (send log, jobs screen): codes, passwords, tokens. */
export const secretNames = ['code', 'password', 'token', 'secret'];
export const masked = '••••••';

const isSecret = (name: string) => secretNames.some((secret) => name.toLowerCase().includes(secret));

/** A copy of a job's payload with every secret-named value replaced, at any depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, isSecret(name) ? masked : maskSecrets(inner)]));
  }
  return value;
}
