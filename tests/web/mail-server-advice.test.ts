/** The operator's mail-server card: DNS advice only for a publishable host name; otherwise, plainly, that a real one is needed. */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { describe, expect, it } from 'vitest';
import { messagesOf } from '../../src/i18n/areaTexts';
import { hostnameAdvice } from '../../src/mail/mailServer/MailServerCard';

const say = (locale: 'en' | 'zh', advice: [string, Record<string, string>]) => polyglotI18nProvider(() => messagesOf(locale), locale).translate(...advice);

describe('the mail server’s DNS advice', () => {
  it('When the mail host is named by an IP address, then no A or PTR record of it is advised: a real host name is needed, in en and zh', () => {
    const en = say('en', hostnameAdvice({ hostname: '127.0.0.1', problem: 'ip' }));
    expect(en).toMatch(/^127\.0\.0\.1 is an address, not a host name/);
    expect(en).not.toMatch(/an A \(and AAAA\) record of 127\.0\.0\.1/);
    expect(say('zh', hostnameAdvice({ hostname: '127.0.0.1', problem: 'ip' }))).toMatch(/^127\.0\.0\.1 是一个地址，不是主机名/);
  });

  it('When it is a loopback or local name, then it says the name is not public; a real name gets its A and PTR records', () => {
    expect(say('en', hostnameAdvice({ hostname: 'localhost', problem: 'not_a_name' }))).toMatch(/^localhost is not a public host name/);
    expect(say('en', hostnameAdvice({ hostname: 'mail.example.net', problem: null }))).toMatch(/an A \(and AAAA\) record of mail\.example\.net .* reverse \(PTR\) record/);
  });
});
