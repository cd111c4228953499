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
  // Hardening: the owner told when their password is being guessed.
  sign_in_attempts: {
    en: {
      subject: 'Someone is trying to guess your Maildesk password',
      body: 'Hello,\n\nThere have been many wrong passwords for {{email}} in the last {{minutes}} minutes. Your account is not locked: you can still sign in at {{url}}/login, and the addresses that keep failing are slowed down.\n\nIf it was not you, choose a strong password you use nowhere else ({{url}}/forgot_password).\n\nMaildesk',
    },
    zh: {
      subject: '有人正在尝试猜测您的 Maildesk 密码',
      body: '您好：\n\n最近 {{minutes}} 分钟内，{{email}} 出现了多次错误的密码。您的账户没有被锁定：您仍可以在 {{url}}/login 登录，反复失败的来源会被减速。\n\n如果不是您本人，请设置一个在别处没有用过的强密码（{{url}}/forgot_password）。\n\nMaildesk',
    },
  },
  // Security: wrong second-factor codes after the right password (the password is known to someone).
  second_factor_attempts: {
    en: {
      subject: 'Someone who knows your Maildesk password is guessing your second factor',
      body: 'Hello,\n\nThere have been many wrong second-factor codes for {{email}} in the last {{minutes}} minutes, each after the right password. Your second factor kept them out, but whoever tried knows your password.\n\nIf it was not you, change your password at once ({{url}}), and end any session you do not know.\n\nMaildesk',
    },
    zh: {
      subject: '知道您 Maildesk 密码的人正在猜测您的第二重验证',
      body: '您好：\n\n最近 {{minutes}} 分钟内，{{email}} 在输入正确密码之后，多次输入了错误的第二重验证码。第二重验证挡住了对方，但尝试者知道您的密码。\n\n如果不是您本人，请立即修改密码（{{url}}），并结束您不认识的会话。\n\nMaildesk',
    },
  },
  new_device_sign_in: {
    en: {
      subject: 'New sign-in to your Maildesk account from {{device}}',
      body: 'Hello,\n\n{{email}} was signed in to from a device not used before: {{device}}, from {{ip}}, at {{time}}.\n\nIf it was you, nothing needs to be done. If it was not, end that session at {{url}}{{page}} and change your password.\n\nMaildesk',
    },
    zh: {
      subject: '您的 Maildesk 账户在新设备上登录：{{device}}',
      body: '您好：\n\n{{email}} 刚刚在一台此前未使用过的设备上登录：{{device}}，来自 {{ip}}，时间 {{time}}。\n\n如果是您本人，无需任何操作。如果不是，请在 {{url}}{{page}} 结束该会话，并修改密码。\n\nMaildesk',
    },
  },
  // Shop: people read the order's number; the id only makes the link.
  order_paid: {
    en: {
      subject: 'Maildesk order {{order_number}} is paid',
      body: 'Hello,\n\nThank you: order {{order_number}} ({{product}}, {{amount}}) is paid and ready. See it at {{url}}/admin/order/view?id={{order_id}}.\n\nMaildesk',
    },
    zh: {
      subject: 'Maildesk 订单 {{order_number}} 已支付',
      body: '您好：\n\n感谢您的购买：订单 {{order_number}}（{{product}}，{{amount}}）已支付并已生效。查看订单：{{url}}/admin/order/view?id={{order_id}}。\n\nMaildesk',
    },
  },
  // Storage: before a block expires, when it has expired, and when the quotas no longer fit.
  storage_reminder: {
    en: {
      subject: 'Your Maildesk storage of {{size}} expires in {{days}} days',
      body: 'Hello,\n\nYour storage block of {{size}} {{label}}expires on {{expires_on}} (in {{days}} days).\n\nRenew it at {{url}}/admin/storage to keep your capacity. Your mailboxes keep receiving mail either way; without the capacity, new mailboxes and larger quotas are refused.\n\nMaildesk',
    },
    zh: {
      subject: '您的 Maildesk 存储空间（{{size}}）将在 {{days}} 天后到期',
      body: '您好：\n\n您的存储空间 {{size}} {{label}}将于 {{expires_on}} 到期（还有 {{days}} 天）。\n\n请在 {{url}}/admin/storage 续费以保留容量。无论是否续费，您的邮箱都会继续收信；容量不足时，将无法新建邮箱或调大配额。\n\nMaildesk',
    },
  },
  storage_expired: {
    en: {
      subject: 'Your Maildesk storage of {{size}} has expired',
      body: 'Hello,\n\nYour storage block of {{size}} {{label}}expired on {{expires_on}}. Your capacity is now {{capacity}}, and your mailboxes use {{allocated}} of quota out of it, so nothing else changes.\n\nYou can renew the block at {{url}}/admin/storage.\n\nMaildesk',
    },
    zh: {
      subject: '您的 Maildesk 存储空间（{{size}}）已到期',
      body: '您好：\n\n您的存储空间 {{size}} {{label}}已于 {{expires_on}} 到期。您现在的总容量为 {{capacity}}，邮箱配额共占用 {{allocated}}，其他一切不受影响。\n\n您可以在 {{url}}/admin/storage 续费。\n\nMaildesk',
    },
  },
  storage_over_capacity: {
    en: {
      subject: 'Your Maildesk storage of {{size}} has expired: your quotas exceed your capacity by {{shortfall}}',
      body: 'Hello,\n\nYour storage block of {{size}} {{label}}expired on {{expires_on}}. Your capacity is now {{capacity}}, but your mailboxes have {{allocated}} of quota: {{shortfall}} more than you hold.\n\nNothing is deleted: your mailboxes keep receiving mail and signing in. Until you buy at least {{shortfall}} of storage (or renew the block at {{url}}/admin/storage), or lower quotas by that much, new mailboxes and larger quotas are refused.\n\nMaildesk',
    },
    zh: {
      subject: '您的 Maildesk 存储空间（{{size}}）已到期：邮箱配额超出容量 {{shortfall}}',
      body: '您好：\n\n您的存储空间 {{size}} {{label}}已于 {{expires_on}} 到期。您现在的总容量为 {{capacity}}，但邮箱配额共 {{allocated}}，超出 {{shortfall}}。\n\n不会删除任何数据：您的邮箱照常收信和登录。在您购买至少 {{shortfall}} 的存储空间（或在 {{url}}/admin/storage 续费），或将配额降低同样多之前，无法新建邮箱或调大配额。\n\nMaildesk',
    },
  },
  // Support
  ticket_reply: {
    en: {
      subject: '[#{{number}}] New reply: {{subject}}',
      body: 'Hello,\n\nSupport replied to your ticket #{{number}} "{{subject}}":\n\n{{message}}\n\nRead and answer it at {{link}}\n\nMaildesk',
    },
    zh: {
      subject: '[#{{number}}] 工单有新回复：{{subject}}',
      body: '您好：\n\n客服回复了您的工单 #{{number}}「{{subject}}」：\n\n{{message}}\n\n请在 {{link}} 查看并回复。\n\nMaildesk',
    },
  },
  ticket_closed: {
    en: {
      subject: '[#{{number}}] Ticket closed: {{subject}}',
      body: 'Hello,\n\nYour ticket #{{number}} "{{subject}}" is closed.\n\n{{message}}\n\nIf you still need help, write in it at {{link}} to open it again.\n\nMaildesk',
    },
    zh: {
      subject: '[#{{number}}] 工单已关闭：{{subject}}',
      body: '您好：\n\n您的工单 #{{number}}「{{subject}}」已关闭。\n\n{{message}}\n\n如果仍需帮助，请在 {{link}} 回复，工单将重新打开。\n\nMaildesk',
    },
  },
  ticket_new: {
    en: {
      subject: '[#{{number}}] New ticket: {{subject}}',
      body: 'A customer opened ticket #{{number}} "{{subject}}":\n\n{{message}}\n\nAnswer it at {{link}}',
    },
    zh: {
      subject: '[#{{number}}] 新工单：{{subject}}',
      body: '客户提交了工单 #{{number}}「{{subject}}」：\n\n{{message}}\n\n请在 {{link}} 处理。',
    },
  },
  ticket_customer_reply: {
    en: {
      subject: '[#{{number}}] Customer replied: {{subject}}',
      body: 'The customer wrote in ticket #{{number}} "{{subject}}":\n\n{{message}}\n\nAnswer it at {{link}}',
    },
    zh: {
      subject: '[#{{number}}] 客户回复：{{subject}}',
      body: '客户在工单 #{{number}}「{{subject}}」中回复：\n\n{{message}}\n\n请在 {{link}} 处理。',
    },
  },
  // Guest messages
  guest_reply: {
    en: {
      subject: '{{subject}}',
      body: 'Hello {{name}},\n\n{{reply}}\n\n--\nYou wrote on {{written_at}}:\n{{original}}\n\nMaildesk',
    },
    zh: {
      subject: '{{subject}}',
      body: '{{name}}，您好：\n\n{{reply}}\n\n--\n您于 {{written_at}} 的留言：\n{{original}}\n\nMaildesk',
    },
  },
  // Team invitations
  team_invitation: {
    en: {
      subject: '{{inviter}} invites you to manage e-mail on Maildesk',
      body: 'Hello,\n\n{{inviter}} invites you to join their Maildesk account as a team member, with the address {{email}}.\n\nTo accept, choose your password at {{url}}/accept-invitation?token={{token}}\nThe link is valid for {{days}} days and can be used once.\n\nIf you do not know {{inviter}} or do not want to join, ignore this message: nothing happens without you.\n\nMaildesk',
    },
    zh: {
      subject: '{{inviter}} 邀请您在 Maildesk 管理邮箱',
      body: '您好：\n\n{{inviter}} 邀请您以 {{email}} 作为团队成员加入其 Maildesk 账户。\n\n如需接受邀请，请在 {{url}}/accept-invitation?token={{token}} 设置您的密码。\n该链接 {{days}} 天内有效，仅可使用一次。\n\n如果您不认识 {{inviter}} 或不想加入，请忽略本邮件，不会有任何变化。\n\nMaildesk',
    },
  },
  team_invitation_exists: {
    en: {
      subject: '{{inviter}} invites you to manage e-mail on Maildesk',
      body: 'Hello,\n\n{{inviter}} invited {{email}} to join their Maildesk account as a team member. This address already has a Maildesk account, so the invitation cannot be accepted with it and nothing was changed.\n\nIf you want to join, ask {{inviter}} to invite another of your addresses. You can sign in to your account at {{url}}/login, or reset its password at {{url}}/forgot_password.\n\nIf you do not know {{inviter}}, no action is needed.\n\nMaildesk',
    },
    zh: {
      subject: '{{inviter}} 邀请您在 Maildesk 管理邮箱',
      body: '您好：\n\n{{inviter}} 邀请 {{email}} 以团队成员身份加入其 Maildesk 账户。该邮箱已有 Maildesk 账户，因此无法用它接受邀请，也没有做任何更改。\n\n如果您想加入，请让 {{inviter}} 邀请您的其他邮箱。您可以在 {{url}}/login 登录现有账户，或在 {{url}}/forgot_password 重置密码。\n\n如果您不认识 {{inviter}}，无需任何操作。\n\nMaildesk',
    },
  },
  // Operators checking the outgoing-mail settings
  test_message: {
    en: {
      subject: 'Maildesk test message',
      body: 'Hello,\n\nThis is a test message from the Maildesk panel at {{url}}, sent by the operator {{operator}} to check the outgoing mail.\n\nSender: {{from}}\nSent through: {{server}}\n\nIf it reached you, customers receive their codes and notices the same way.\n\nMaildesk',
    },
    zh: {
      subject: 'Maildesk 测试邮件',
      body: '您好：\n\n这是 Maildesk 面板（{{url}}）的测试邮件，由管理员 {{operator}} 发送，用于检查发信设置。\n\n发件人：{{from}}\n发送方式：{{server}}\n\n如果您收到了这封邮件，客户的验证码和通知也会这样送达。\n\nMaildesk',
    },
  },
  mailbox_held: {
    en: {
      subject: 'Mailbox {{address}} is held: it may not send until released',
      body: 'Hello,\n\nThe mailbox {{address}} was held ({{reason}}: {{detail}}). Its password may have leaked: its submissions are refused until it is released, so that it cannot send spam under your addresses.\n\nChange its password, then release it at {{link}}.\n\nMaildesk',
    },
    zh: {
      subject: '邮箱 {{address}} 已被暂停发信，释放前无法发送邮件',
      body: '您好：\n\n邮箱 {{address}} 已被暂停发信（{{reason}}：{{detail}}）。其密码可能已经泄露：在释放之前，该邮箱的发信会被拒绝，以免以您的地址发送垃圾邮件。\n\n请先修改该邮箱的密码，然后在 {{link}} 释放它。\n\nMaildesk',
    },
  },
  dns_record_broken: {
    en: {
      subject: 'DNS of {{domain}}: {{count}} record(s) no longer correct',
      body: 'Hello,\n\nOur regular check of the DNS records of {{domain}} found that these records, correct before, no longer are:\n\n{{records}}\n\nUntil they are fixed at your DNS provider, mail from and to {{domain}} may be refused or filed as spam. The domain page shows every record and its history: {{link}}\n\nWe tell you once; when the records are correct again, the next check notices it.\n\nMaildesk',
    },
    zh: {
      subject: '{{domain}} 的 DNS：{{count}} 条记录不再正确',
      body: '您好：\n\n我们定期检查 {{domain}} 的 DNS 记录时发现，以下原本正确的记录现在不正确了：\n\n{{records}}\n\n在您到 DNS 服务商处修正之前，{{domain}} 的收发邮件可能被拒收或被归为垃圾邮件。域名页面列出了每条记录及其变化历史：{{link}}\n\n此通知只发送一次；记录恢复正确后，下一次检查会记录下来。\n\nMaildesk',
    },
  },
};
