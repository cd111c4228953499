/**
 * The built-in text of every message the system sends. Seeded into email_template at start
 * (operators edit them there); used as they are when a row is missing.
 */
import type { Locale } from '../../resources/customer.js';
import type { TemplateKey } from '../../resources/email_template.js';

type Template = { subject: string; body: string };

export const defaultTemplates: Record<TemplateKey, Record<Locale, Template>> = {
  verify_code: {
    en: {
      subject: 'Your Maildesk verification code: {{code}}',
      body: 'Hello,\n\nYour verification code is {{code}}. It is valid for {{minutes}} minutes.\n\nEnter it at {{url}}/verify to confirm {{email}}.\n\nIf you did not sign up, ignore this message.\n\nMaildesk',
    },
    zh: {
      subject: 'Maildesk 验证码：{{code}}',
      body: '您好：\n\n您的验证码是 {{code}}，{{minutes}} 分钟内有效。\n\n请在 {{url}}/verify 输入验证码以确认邮箱 {{email}}。\n\n如果这不是您本人的操作，请忽略本邮件。\n\nMaildesk',
    },
  },
  login_code: {
    en: {
      subject: 'Your Maildesk sign-in code: {{code}}',
      body: 'Hello,\n\nUse the code {{code}} to sign in to {{email}}. It is valid for {{minutes}} minutes and can be used once.\n\nIf you did not ask for it, someone may know your address; nothing happens unless the code is entered.\n\nMaildesk',
    },
    zh: {
      subject: 'Maildesk 登录验证码：{{code}}',
      body: '您好：\n\n使用验证码 {{code}} 登录 {{email}}，{{minutes}} 分钟内有效，仅可使用一次。\n\n如果这不是您本人的操作，请忽略本邮件；不输入验证码就不会登录。\n\nMaildesk',
    },
  },
  password_reset: {
    en: {
      subject: 'Reset your Maildesk password',
      body: 'Hello,\n\nSomeone asked to reset the password of {{email}}. Your reset code is {{code}}, valid for {{minutes}} minutes.\n\nEnter it at {{url}}/forgot_password together with your new password.\n\nIf it was not you, ignore this message: your password stays as it is.\n\nMaildesk',
    },
    zh: {
      subject: '重置您的 Maildesk 密码',
      body: '您好：\n\n有人申请重置 {{email}} 的密码。重置验证码是 {{code}}，{{minutes}} 分钟内有效。\n\n请在 {{url}}/forgot_password 输入验证码和新密码。\n\n如果这不是您本人的操作，请忽略本邮件，您的密码不会改变。\n\nMaildesk',
    },
  },
  email_change: {
    en: {
      subject: 'Confirm your new Maildesk e-mail address: {{code}}',
      body: 'Hello,\n\nTo make {{email}} the address of your Maildesk account, enter the code {{code}} in your profile. It is valid for {{minutes}} minutes.\n\nIf you did not ask for this, ignore this message.\n\nMaildesk',
    },
    zh: {
      subject: '确认您的 Maildesk 新邮箱：{{code}}',
      body: '您好：\n\n要将 {{email}} 设为您 Maildesk 账户的邮箱，请在个人资料页输入验证码 {{code}}，{{minutes}} 分钟内有效。\n\n如果这不是您本人的操作，请忽略本邮件。\n\nMaildesk',
    },
  },
  mailbox_check: {
    en: {
      subject: 'Maildesk delivery check for {{address}}: {{code}}',
      body: 'Hello,\n\nThis message proves that {{address}} receives mail. Enter the code {{code}} in the mailbox page of Maildesk to confirm it. It is valid for {{minutes}} minutes.\n\nMaildesk',
    },
    zh: {
      subject: 'Maildesk 邮箱投递检查 {{address}}：{{code}}',
      body: '您好：\n\n这封邮件证明 {{address}} 可以收信。请在 Maildesk 的邮箱页面输入验证码 {{code}} 完成确认，{{minutes}} 分钟内有效。\n\nMaildesk',
    },
  },
  account_exists: {
    en: {
      subject: 'Someone tried to register with your address',
      body: 'Hello,\n\nSomeone tried to create a Maildesk account with {{email}}, which already has one. If it was you, sign in at {{url}}/login, or reset your password at {{url}}/forgot_password.\n\nIf it was not you, no action is needed.\n\nMaildesk',
    },
    zh: {
      subject: '有人尝试用您的邮箱注册',
      body: '您好：\n\n有人尝试使用 {{email}} 注册 Maildesk 账户，但该邮箱已有账户。如果是您本人，请在 {{url}}/login 登录，或在 {{url}}/forgot_password 重置密码。\n\n如果不是您本人，无需任何操作。\n\nMaildesk',
    },
  },
};
