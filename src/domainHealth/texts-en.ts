/** The domain-health screens' texts in English (DNS watch, MTA-STS); texts-zh.ts must have every key. */
export const domainHealthEn = {
  app: {
    dns: {
      kind: { mta_sts: 'MTA-STS', mta_sts_host: 'MTA-STS host', tls_rpt: 'TLS reporting' },
    },
    health: {
      title: 'DNS watch',
      intro: 'We look up this domain\'s records every few hours. When one that was correct breaks, we e-mail you once; when it is correct again, the history shows it.',
      not_watched: 'Only active domains are watched: the watch starts once the domain is verified.',
      checked_at: 'Last looked %{time}',
      never_checked: 'Not looked at yet',
      next_at: 'next %{time}',
      check_now: 'Look now',
      checked: 'Looked up: the states below are current',
      since: 'since %{time}',
      history: 'History',
      no_history: 'No change yet: every record is as first seen.',
      at: 'When',
      record: 'Record',
      change: 'Change',
      notified: 'E-mailed',
      found: 'DNS answered:',
      nothing_found: 'nothing',
      more: 'Older changes',
      mta_sts_title: 'MTA-STS (TLS for mail to you)',
      mta_sts_intro: 'Senders that know MTA-STS read the policy served at %{url}. While testing, they only report TLS problems (to the TLS reporting address); enforced, they deliver to this domain only over verified TLS.',
      enforce: 'Enforce the policy',
      mode_testing: 'Mode: testing',
      mode_enforce: 'Mode: enforce',
      mode_saved: 'Policy changed: publish the new _mta-sts TXT record "%{value}" at %{host}',
      enforce_confirm: 'Enforce MTA-STS for this domain? Senders that know it will then refuse to deliver here without verified TLS. Do this once the TLS reports show no failures.',
    },
    log: {
      action: { mta_sts_mode: 'changed the MTA-STS mode of', dkim_switch: 'switched the DKIM key of', dkim_prepare: 'made a new DKIM key for' },
    },
    template: { dns_record_broken: 'DNS record broken' },
  },
};
