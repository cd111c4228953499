/**
 * docs/configuration.md says it lists every variable: every environment variable the server reads
 * (process.env.X, or env.X where env is the environment handed in) is named in it, and where the
 * code's default is a plain literal, the document's default column says the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve('server');
const document = fs.readFileSync(path.resolve('docs/configuration.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

const sources = sourceFiles(serverDir).map((file) => ({ file: path.relative(process.cwd(), file), text: fs.readFileSync(file, 'utf8') }));

/** Every variable read: process.env.X, process.env['X'], env.X, env?.X, env['X'] (env: the environment passed to loadConfig and the command line). */
function variablesRead(): Map<string, string> {
  const read = new Map<string, string>();
  const pattern = /\b(?:process\.env|env)(?:\??\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g;
  for (const { file, text } of sources) {
    for (const match of text.matchAll(pattern)) {
      const name = match[1] ?? match[2];
      if (!read.has(name)) read.set(name, file);
    }
  }
  return read;
}

/** The table's rows: the names in the first cell, the defaults in the second (in the same order). */
function documentedRows(): { names: string[]; defaults: string[] }[] {
  return document
    .split('\n')
    .filter((line) => /^\| `[A-Z]/.test(line))
    .map((line) => {
      const [, first, second] = line.split('|');
      const names = [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]);
      const defaults = second.split(',').map((cell) => cell.trim().replace(/^`|`$/g, ''));
      return { names, defaults };
    });
}

describe('docs/configuration.md', () => {
  it('When the server reads an environment variable, then the configuration page lists it', () => {
    const documented = new Set(documentedRows().flatMap((row) => row.names));
    const read = variablesRead();
    expect(read.size).toBeGreaterThan(40);
    const missing = [...read].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });

  it('When the page lists a variable, then the server reads it (no stale rows)', () => {
    const read = variablesRead();
    const stale = documentedRows().flatMap((row) => row.names).filter((name) => !read.has(name));
    expect(stale).toEqual([]);
  });

  it("When the code's default is a plain value, then the page's default column says the same", () => {
    // env.X || 'text', and intOf(env.X, 12 * 60): the two shapes a plain default takes in the code.
    const defaults = new Map<string, string>();
    for (const { text } of sources) {
      for (const m of text.matchAll(/env\.([A-Z][A-Z0-9_]*) \|\| '([^'`$]*)'/g)) defaults.set(m[1], m[2]);
      for (const m of text.matchAll(/intOf\(env\.([A-Z][A-Z0-9_]*), ([0-9 *]+)\)/g)) {
        defaults.set(m[1], String(m[2].split('*').reduce((product, factor) => product * Number(factor.trim()), 1)));
      }
    }
    expect(defaults.get('LOG_LEVEL')).toBe('info');
    const wrong: string[] = [];
    // A row whose one default speaks for several names ("Stripe's") is not compared name by name.
    for (const row of documentedRows().filter((r) => r.names.length === r.defaults.length)) {
      row.names.forEach((name, i) => {
        const inCode = defaults.get(name);
        if (inCode === undefined) return;
        const onPage = row.defaults[i] ?? '';
        const pageValue = onPage.replace(/^`|`$/g, '');
        // A path default (./data, /var/vmail) is written as it is; a relative one may be shown resolved.
        if (pageValue !== inCode && !pageValue.includes(inCode)) wrong.push(`${name}: code ${inCode}, page ${onPage}`);
      });
    }
    expect(wrong).toEqual([]);
  });
});
