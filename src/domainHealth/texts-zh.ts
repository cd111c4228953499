/** 域名健康相关界面的中文文本（DNS 监测、MTA-STS），与 texts-en.ts 的键一一对应。 */
import type { domainHealthEn } from './texts-en';

type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

export const domainHealthZh: Texts<typeof domainHealthEn> = {
  app: {
    dns: {
      kind: { mta_sts: 'MTA-STS', mta_sts_host: 'MTA-STS 主机', tls_rpt: 'TLS 报告' },
    },
    health: {
      title: 'DNS 监测',
      intro: '我们每隔几小时查询一次本域名的记录。原本正确的记录出错时，我们只发一封邮件通知您；记录恢复正确后，历史中会显示出来。',
      not_watched: '只监测已启用的域名：域名验证通过后开始监测。',
      checked_at: '上次查询 %{time}',
      never_checked: '尚未查询',
      next_at: '下次 %{time}',
      check_now: '立即查询',
      checked: '已查询：以下状态为最新',
      since: '自 %{time} 起',
      history: '变化历史',
      no_history: '暂无变化：所有记录与首次查询时相同。',
      at: '时间',
      record: '记录',
      change: '变化',
      notified: '已发邮件',
      found: 'DNS 返回：',
      nothing_found: '无',
      more: '更早的变化',
      mta_sts_title: 'MTA-STS（发往您的邮件使用 TLS）',
      mta_sts_intro: '支持 MTA-STS 的发件方会读取 %{url} 上的策略。测试模式下，他们只报告 TLS 问题（发往 TLS 报告地址）；强制模式下，他们只通过经过验证的 TLS 向本域名投递。',
      enforce: '强制执行策略',
      mode_testing: '模式：测试',
      mode_enforce: '模式：强制',
      mode_saved: '策略已更改：请在 %{host} 发布新的 _mta-sts TXT 记录“%{value}”',
      enforce_confirm: '要对此域名强制执行 MTA-STS 吗？此后支持它的发件方在没有经过验证的 TLS 时将拒绝投递。请在 TLS 报告显示没有失败后再这样做。',
    },
    log: {
      action: { mta_sts_mode: '更改了 MTA-STS 模式：', dkim_switch: '切换了 DKIM 密钥：', dkim_prepare: '生成了新的 DKIM 密钥：' },
    },
    template: { dns_record_broken: 'DNS 记录出错' },
  },
};
