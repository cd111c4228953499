import { describe, expect, it } from 'vitest';
import { messagesOf } from '../../src/i18n/areaTexts';
import { logChanges, logSentence } from '../../src/accounts/activityLog/sentence';
import { declarationsOf } from './areas';

const translator = (locale: 'zh' | 'en') => {
  const messages = messagesOf(locale);
  return (key: string, options: Record<string, unknown> = {}) => {
    const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
    const template = typeof text === 'string' ? text : String(options._ ?? key);
    return template.replace(/%\{(\w+)\}/g, (_m, name: string) => String(options[name]));
  };
};

const noteChanged = { actor_type: 'customer', actor_id: 7, actor_name: 'ann@example.com', action: 'update', target_type: 'domain', target_id: 3, before: { note: 'Shop', name_unicode: 'bücher.example' }, after: { note: '', name_unicode: 'bücher.example' } };

describe('the activity log as sentences', () => {
  it('When a customer reads their own change, then it says "you", the record type and name, in zh and en', () => {
    expect(logSentence(noteChanged, 'admin', 'zh', translator('zh'))).toBe('您修改了域名「bücher.example」');
    expect(logSentence(noteChanged, 'admin', 'en', translator('en'))).toBe('You changed the domain “bücher.example”');
  });

  it('When an operator reads it, then the customer is named; a customer reading an operator’s change is told "an operator" only', () => {
    expect(logSentence(noteChanged, 'manage', 'en', translator('en'))).toBe('Customer ann@example.com changed the domain “bücher.example”');
    const byOperator = { ...noteChanged, actor_type: 'operator', actor_name: 'root', action: 'verify' };
    expect(logSentence(byOperator, 'admin', 'zh', translator('zh'))).toBe('一位管理员验证了域名「bücher.example」');
    expect(logSentence(byOperator, 'manage', 'zh', translator('zh'))).toBe('管理员 root验证了域名「bücher.example」');
  });

  it('When people sign in and out of their own login, then it reads "You signed in", naming no record, in zh and en', () => {
    const login = { actor_type: 'team_member', actor_id: 9, actor_name: 'tm@example.com', action: 'login', target_type: 'user', target_id: 9, after: { method: 'password' } };
    expect(logSentence(login, 'admin', 'en', translator('en'))).toBe('Team member tm@example.com signed in');
    const own = { ...login, actor_type: 'customer', actor_id: 2, actor_name: 'ann@example.com', target_id: 2 };
    expect(logSentence(own, 'admin', 'en', translator('en'))).toBe('You signed in');
    expect(logSentence(own, 'admin', 'zh', translator('zh'))).toBe('您登录了');
    expect(logSentence(own, 'manage', 'en', translator('en'))).toBe('Customer ann@example.com signed in');
    expect(logSentence({ ...own, action: 'logout' }, 'admin', 'en', translator('en'))).toBe('You signed out');
    expect(logSentence({ ...own, action: 'verify', before: { is_verified: 0 }, after: { is_verified: 1 } }, 'admin', 'en', translator('en'))).toBe('You verified the sign-in address');
    expect(logSentence({ ...own, action: 'verify' }, 'admin', 'zh', translator('zh'))).toBe('您验证了登录邮箱');
    const operator = { actor_type: 'operator', actor_id: 1, actor_name: 'root', action: 'login', target_type: 'operator', target_id: 1 };
    expect(logSentence(operator, 'manage', 'zh', translator('zh'))).toBe('管理员 root登录了');
    const owner = { actor_type: 'mailbox', actor_id: 5, actor_name: 'anna@example.org', action: 'login', target_type: 'email', target_id: 5 };
    expect(logSentence(owner, 'admin', 'en', translator('en'))).toBe('Mailbox owner anna@example.org signed in');
    // A failed try is not the account's own doing: whoever typed is unknown.
    const failed = { actor_type: 'anonymous', action: 'login_failed', target_type: 'user', target_id: 2, after: { email: 'ann@example.com', method: 'password' } };
    expect(logSentence(failed, 'admin', 'en', translator('en'))).toBe('Someone failed to sign in to the account “ann@example.com”');
  });

  it('When an API key or an app password is deleted, then the log says it was revoked, in zh and en', () => {
    const revoked = { actor_type: 'customer', actor_id: 2, action: 'delete', target_type: 'api_key', target_id: 4, before: { name: 'Backup' } };
    expect(logSentence(revoked, 'admin', 'en', translator('en'))).toBe('You revoked the API key “Backup”');
    expect(logSentence(revoked, 'admin', 'zh', translator('zh'))).toBe('您撤销了API 密钥「Backup」');
    const appPassword = { actor_type: 'mailbox', actor_id: 5, actor_name: 'anna@example.org', action: 'delete', target_type: 'app_password', target_id: 3, before: { name: 'Phone' } };
    expect(logSentence(appPassword, 'admin', 'en', translator('en'))).toMatch(/^Mailbox owner anna@example.org revoked the .* “Phone”$/);
  });

  it('When a change was made with an API key, or sessions were ended, then the sentence says so, in zh and en', () => {
    const byKey = { ...noteChanged, action: 'create', api_key_name: 'Provisioning' };
    expect(logSentence(byKey, 'admin', 'en', translator('en'))).toBe('You (with the API key “Provisioning”) added the domain “bücher.example”');
    expect(logSentence(byKey, 'admin', 'zh', translator('zh'))).toBe('您（使用 API 密钥“Provisioning”）添加了域名「bücher.example」');
    const keyMade = { actor_type: 'customer', action: 'create', target_type: 'api_key', target_id: 2, after: { name: 'Backup' } };
    expect(logSentence(keyMade, 'admin', 'en', translator('en'))).toBe('You added the API key “Backup”');
    const ended = { actor_type: 'operator', actor_name: 'root', action: 'end_session', target_type: 'session', target_id: 4, before: { name: 'Firefox (Windows)', ip: '192.0.2.1' } };
    expect(logSentence(ended, 'manage', 'en', translator('en'))).toBe('Operator root ended the session “Firefox (Windows)”');
    expect(logSentence(ended, 'manage', 'zh', translator('zh'))).toBe('管理员 root结束了会话「Firefox (Windows)」');
    const others = { actor_type: 'mailbox', actor_name: 'anna@example.org', action: 'end_other_sessions', target_type: 'email', target_id: 5, after: { name: 'anna@example.org', count: 2 } };
    expect(logSentence(others, 'admin', 'en', translator('en'))).toBe('Mailbox owner anna@example.org ended every other session of the mailbox “anna@example.org”');
  });

  it('When fields changed, then each reads with its label and formatted values', () => {
    const quota = { actor_type: 'customer', action: 'update', target_type: 'email', target_id: 5, before: { quota: 1024 ** 3, active: 1, name: 'Ann' }, after: { quota: 2 * 1024 ** 3, active: 0, name: 'Ann' } };
    expect(logChanges(quota, declarationsOf('admin'), 'en', translator('en'))).toEqual([
      { field: 'quota', label: 'Quota', before: '1 GiB', after: '2 GiB' },
      { field: 'active', label: 'Active', before: 'Yes', after: 'No' },
    ]);
    expect(logChanges(noteChanged, declarationsOf('manage'), 'zh', translator('zh'))).toEqual([{ field: 'note', label: '备注', before: 'Shop', after: '（空）' }]);
  });

  it('When a record has no screen in the reader’s area, then its values still read by its declaration (the account for customers, team members for operators)', () => {
    const verified = { actor_type: 'customer', action: 'verify', target_type: 'user', target_id: 9, before: { is_verified: 0 }, after: { is_verified: 1 } };
    expect(logChanges(verified, declarationsOf('admin'), 'en', translator('en'))).toEqual([{ field: 'is_verified', label: 'Verified', before: 'No', after: 'Yes' }]);
    const suspended = { actor_type: 'customer', action: 'update', target_type: 'team_member', target_id: 4, before: { status: 'active' }, after: { status: 'disabled' } };
    expect(logChanges(suspended, declarationsOf('manage'), 'en', translator('en'))).toEqual([{ field: 'status', label: 'Status', before: 'Active', after: 'Disabled' }]);
  });

  it('When second factors change, then the sentences name the account, and a rule for a whole group reads without a name', () => {
    const added = { actor_type: 'customer', actor_name: 'ann@example.com', action: 'passkey_add', target_type: 'user', target_id: 7, after: { email: 'ann@example.com', name: 'Laptop' } };
    expect(logSentence(added, 'admin', 'en', translator('en'))).toBe('You added a passkey to the account “ann@example.com”');
    expect(logSentence(added, 'admin', 'zh', translator('zh'))).toBe('您添加了通行密钥：账户「ann@example.com」');
    const reset = { actor_type: 'operator', actor_name: 'root', action: 'second_factor_reset', target_type: 'user', target_id: 7, after: { email: 'ann@example.com', reason: 'Lost phone' } };
    expect(logSentence(reset, 'admin', 'en', translator('en'))).toBe('An operator reset the second factor of the account “ann@example.com”');
    const policy = { actor_type: 'operator', actor_name: 'root', action: 'second_factor_required', target_type: 'operators', before: { required: false }, after: { required: true } };
    expect(logSentence(policy, 'manage', 'en', translator('en'))).toBe('Operator root now requires a second factor of every operator');
    expect(logSentence(policy, 'manage', 'zh', translator('zh'))).toBe('管理员 root要求必须使用两步验证：所有管理员');
  });
});
