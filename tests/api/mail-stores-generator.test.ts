/**
 * deploy:config by role (issue 34, item 2): what a front host and a mail store are given, and that
 * a one-host installation stays as it was. The daemons reading these files are tested in the mail
 * suite (tests/mail/mail-stores.test.ts); here, what each role's files say.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installationFiles } from '../../deploy/generate.js';
import { HelpRequested, parseOptions } from '../../deploy/options.js';

const base = ['--db', 'sqlite:/srv/maildesk/data/maildesk.sqlite', '--out', '/etc/maildesk', '--tls-cert', '/etc/ssl/mail.pem', '--tls-key', '/etc/ssl/mail.key', '--panel-token', 'panel-token-0123456789'];
const filesOf = (...extra: string[]) => installationFiles(parseOptions([...base, ...extra], {}));
const names = (files: Record<string, string>) => Object.keys(files).map((file) => path.relative('/etc/maildesk', file)).sort();

describe('deploy:config --role', () => {
  it('When the role is not one of all, front and store, then nothing is written and the choices are named; --help names both roles of several hosts', () => {
    expect(() => filesOf('--role', 'cluster')).toThrow('--role: all, front or store, not "cluster"');
    expect(() => filesOf('--role', 'front', '--peer-networks', '10.0.0.0/8; rm -rf /')).toThrow('--peer-networks');
    try {
      parseOptions(['--help']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HelpRequested);
      expect((error as Error).message).toMatch(/--role all\|front\|store[\s\S]*front, the host mail[\s\S]*store, a host holding its\s+share of the mailboxes/);
    }
  });

  it('When no role is given, then one host gets everything and no store lookup: Dovecot delivers here and answers the quota policy', () => {
    const files = filesOf();
    expect(files).toEqual(filesOf('--role', 'all'));
    expect(names(files)).not.toContain('postfix/maildesk-store-transport.cf');
    const main = files['/etc/maildesk/postfix/main.cf'];
    expect(main).toMatch(/^virtual_transport = lmtp:inet:127\.0\.0\.1:24$/m);
    expect(main).toMatch(/check_policy_service inet:127\.0\.0\.1:10993$/m);
    const dovecot = files['/etc/maildesk/dovecot/dovecot.conf'];
    expect(dovecot).toMatch(/^protocols = imap pop3 lmtp$/m);
    expect(dovecot).not.toContain('login_trusted_networks');
    expect(files['/etc/maildesk/dovecot/maildesk-sql.conf.ext']).not.toContain('AS proxy');
  });

  it('When the role is front, then Postfix asks each mailbox’s store at delivery and Dovecot proxies each login to it, holding no mail', () => {
    const files = filesOf('--role', 'front', '--lmtp', '0.0.0.0:2424', '--peer-networks', '10.1.0.0/16, 10.2.0.0/16');
    const main = files['/etc/maildesk/postfix/main.cf'];
    expect(main).toMatch(/^transport_maps = inline:\{ reports@mail\.localhost=maildesk-reports: \}, sqlite:\/etc\/maildesk\/postfix\/maildesk-store-transport\.cf$/m);
    expect(main).toMatch(/^virtual_transport = retry:4\.3\.0 /m);
    // The quota policy needs the mail, which is on the stores: the database's answer only.
    expect(main).toMatch(/^smtpd_recipient_restrictions = reject_unauth_destination, check_recipient_access sqlite:\/etc\/maildesk\/postfix\/maildesk-quota-full\.cf$/m);
    expect(files['/etc/maildesk/postfix/maildesk-store-transport.cf']).toMatch(/^query = SELECT 'lmtp:inet:' \|\| lmtp_host \|\| ':2424' FROM mail_mailbox_store WHERE address = '%s'$/m);
    // The stores hand the front what Sieve rules send.
    expect(files['/etc/maildesk/postfix/master.cf']).toContain('  -o mynetworks=127.0.0.0/8,10.1.0.0/16,10.2.0.0/16\n');

    const dovecot = files['/etc/maildesk/dovecot/dovecot.conf'];
    expect(dovecot).toMatch(/^protocols = imap pop3$/m);
    expect(dovecot).not.toMatch(/mail_location|quota-status|service lmtp|sieve/);
    expect(dovecot).toContain('unix_listener /var/spool/postfix/private/auth');
    for (const file of ['maildesk-sql.conf.ext', 'maildesk-app-passwords.conf.ext']) {
      expect(files[`/etc/maildesk/dovecot/${file}`]).toContain(`'y' AS proxy, (SELECT host FROM mail_mailbox_store WHERE address = '%u') AS host, '%{real_lport}' AS port, 'any-cert' AS starttls FROM`);
    }
    expect(names(files).filter((name) => name.startsWith('dovecot/'))).toEqual([
      'dovecot/dovecot.conf',
      'dovecot/maildesk-app-password-use.conf.ext',
      'dovecot/maildesk-app-passwords.conf.ext',
      'dovecot/maildesk-sql.conf.ext',
    ]);
  });

  it('When a front has no TLS (--allow-plaintext), then it reaches the stores without STARTTLS', () => {
    const files = installationFiles(parseOptions(['--db', 'sqlite:/srv/maildesk.sqlite', '--out', '/etc/maildesk', '--allow-plaintext', '--role', 'front'], {}));
    expect(files['/etc/maildesk/dovecot/maildesk-sql.conf.ext']).toContain(`'%{real_lport}' AS port FROM mail_mailbox_login`);
  });

  it('When the role is store, then only Dovecot is written: LMTP, IMAP and POP3 on the store’s address, the front trusted, no SMTP AUTH socket and no quota policy', () => {
    const files = filesOf('--role', 'store', '--imap', '10.1.0.7:143', '--pop3', '10.1.0.7:110', '--lmtp', '10.1.0.7:24', '--reinject', '10.0.0.2:10025', '--peer-networks', '10.0.0.2/32,10.0.0.3/32');
    expect(names(files).every((name) => name.startsWith('dovecot/'))).toBe(true);
    const dovecot = files['/etc/maildesk/dovecot/dovecot.conf'];
    expect(dovecot).toMatch(/^protocols = imap pop3 lmtp$/m);
    expect(dovecot).toMatch(/^listen = 10\.1\.0\.7$/m);
    expect(dovecot).toMatch(/^login_trusted_networks = 10\.0\.0\.2\/32 10\.0\.0\.3\/32$/m);
    expect(dovecot).toMatch(/^submission_host = 10\.0\.0\.2:10025$/m);
    expect(dovecot).toMatch(/address = 10\.1\.0\.7\n {4}port = 24\n/);
    expect(dovecot).not.toMatch(/quota-status|private\/auth/);
    expect(files['/etc/maildesk/dovecot/maildesk-sql.conf.ext']).not.toContain('AS proxy');
  });
});
