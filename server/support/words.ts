/**
 * Search in ticket subjects as an index read: each subject's words are rows of ticket_word
 * (word, ticket_id), so a search is a range scan of that index, never a scan of tickets.
 * Words are lower-case letter/digit runs, matched by prefix; Chinese, Japanese and Korean have
 * no spaces between words, so each of their characters and each pair of them is a word.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';

const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const MAX_WORD = 40;

type Token = { prefix: string } | { exact: string[] };

function tokens(text: string): Token[] {
  const result: Token[] = [];
  for (const [run] of text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    // Split a run where it changes between CJK and other letters ("smtp错误" → "smtp", "错误").
    for (const [part] of run.matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu)) {
      if (cjk.test(part)) {
        const chars = [...part];
        result.push({ exact: chars.length === 1 ? chars : chars.slice(1).map((c, i) => chars[i] + c) });
      } else {
        result.push({ prefix: [...part].slice(0, MAX_WORD).join('') });
      }
    }
  }
  return result;
}

/** The words stored for a subject. */
export function wordsOf(subject: string): string[] {
  const words = new Set<string>();
  for (const token of tokens(subject)) {
    if ('prefix' in token) words.add(token.prefix);
    else for (const pair of token.exact) for (const w of pair.length === 1 ? [pair] : [pair, ...pair]) words.add(w);
  }
  return [...words].slice(0, 200);
}

/** The highest character: every word starting with a prefix sorts below prefix + this. */
const AFTER = '\u{10ffff}';

/** Tickets whose subject has every word of q (by prefix), or whose number is q. */
export function subjectSearch(q: string) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    for (const token of tokens(q).slice(0, 8)) {
      const words = 'prefix' in token ? [token.prefix] : token.exact;
      for (const word of words) {
        const match =
          'prefix' in token
            ? sql<SqlBool>`w.word >= ${word} and w.word < ${word + AFTER}`
            : sql<SqlBool>`w.word = ${word}`;
        conditions.push(sql<SqlBool>`ticket.id in (select w.ticket_id from ticket_word w where ${match})`);
      }
    }
    const byNumber = eb('ticket.number', '=', q.trim().replace(/^#/, '').toUpperCase());
    return conditions.length ? eb.or([eb.and(conditions), byNumber]) : byNumber;
  };
}
