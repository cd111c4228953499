/** 搬迁邮件界面的中文文字（须与 texts-en.ts 的键一一对应）。 */
import type { mailCopyEn } from './texts-en';

type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

export const mailCopyZh: Texts<typeof mailCopyEn> = {
  app: {
    mail_copy: {
      title: '搬迁我的邮件',
      domain_title: '搬迁所有邮箱的邮件',
      intro: '把旧邮件服务器上某个账号的邮件复制到此邮箱：所有文件夹，已读、已回复、已加星标等标记和日期均保持原样。复制在后台进行；以后再次运行时只复制新邮件。',
      domain_intro: '从同一台旧服务器复制此域名下每个已启用邮箱的邮件，各邮箱按用户名模式登录旧服务器。',
      owner_intro: '由服务商或域名管理员从其他服务器搬迁到您邮箱的邮件。',
      start: '搬迁我的邮件',
      start_domain: '搬迁所有邮箱的邮件',
      dialog_title: '从其他服务器搬迁邮件',
      host: '旧服务器（IMAP）',
      host_hint: '例如 imap.old-provider.com',
      port: '端口',
      port_hint: '留空：TLS 为 993，STARTTLS 为 143',
      tls: '加密方式',
      tls_tls: 'TLS（通常为 993 端口）',
      tls_starttls: 'STARTTLS（通常为 143 端口）',
      user: '旧服务器上的用户名',
      password: '旧服务器上的密码',
      password_hint: '仅在复制结束前加密保存，之后不会再显示。',
      user_pattern: '旧服务器上的用户名模式',
      user_pattern_hint: '%e 为邮箱地址，%u 为地址的本地部分，%d 为域名',
      started: '复制已开始，进度将显示在这里',
      started_domain: '已开始 %{smart_count} 个复制任务',
      none: '尚未向此邮箱搬迁过邮件。',
      from: '来源：%{host}:%{port} 上的 %{user}',
      progress: '邮箱中已有 %{done} / %{smart_count} 封邮件',
      copied: '本次复制了 %{copied} 封',
      counting: '正在查看旧服务器…',
      ended: '结束于 %{at}',
      state_queued: '等待开始',
      state_running: '正在复制',
      state_done: '已完成',
      state_failed: '已停止',
      earlier: '以前的复制',
    },
  },
};
