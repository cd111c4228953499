/**
 * Moving in with the real mail server, inside the mail-server suite: a PostfixAdmin 3.3 database
 * (MariaDB) whose mailboxes carry PostfixAdmin's own hash formats is imported through the API;
 * the moment the run ends, Dovecot takes every old password (`doveadm auth test` and an IMAP
 * login), and refuses a wrong one.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { freshPostfixAdmin, postfixAdminHashes } from '../helpers/postfixadmin.js';
import { imap } from './imap.js';
import { ROOT_OPERATOR, type MailStack } from './mail-stack.js';
import { panelApi } from './panel.js';

export function importScenarios(ctx: { stack: () => MailStack }) {
  const tag = crypto.randomBytes(3).toString('hex');
  const domain = `pfa-${tag}.test`;
  const { ok } = panelApi(() => ctx.stack().baseUrl, () => '', () => ctx.stack().panelErrors());

  it('Imports: when a PostfixAdmin installation is imported, then Dovecot takes every old password at once, over doveadm auth test and IMAP', async () => {
    const stack = ctx.stack();
    const hashes = postfixAdminHashes();
    const source = await freshPostfixAdmin('mariadb');
    try {
      await source.fill({ domains: [{ domain }], mailboxes: hashes.map((h) => ({ username: `${h.local}@${domain}`, password: h.stored, quota: 1024 * 1024 })), aliases: [] });
      const root = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
      const customer = await ok('/api/manage/user/create', { email: `moving-${tag}@client.test`, password: 'customer-pass-1', is_verified: 1 }, root);
      await ok('/api/manage/storage/create', { owner_id: customer.id, size: 64 * 1024 * 1024, label: 'imports' }, root);
      const run = await ok('/api/manage/imports/postfixadmin/start', { source: source.url, mapping: [{ domain, customer_id: customer.id }] }, root);
      const until = Date.now() + 60_000;
      let state = run;
      while (state.state !== 'done' && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        state = await ok('/api/manage/imports/get', { id: run.id }, root, 'GET');
      }
      expect(state).toMatchObject({ state: 'done', created: { domain: 1, mailbox: hashes.length } });
      for (const h of hashes) {
        const user = `${h.local}@${domain}`;
        expect({ user, accepted: await stack.doveadmAuth(user, h.password) }).toEqual({ user, accepted: true });
        expect({ user, wrong: await stack.doveadmAuth(user, `${h.password}-not`) }).toEqual({ user, wrong: false });
        const client = imap(stack.ports.imap, user, h.password);
        await client.connect();
        expect(client.authenticated).toBeTruthy();
        await client.logout();
      }
    } finally {
      await source.drop();
    }
  });
}
