#!/bin/sh
# Installs the Debian packages the mail-server suite (npm run test:mail) and a real
# Maildesk mail server need: Postfix with SQLite and PostgreSQL maps, Dovecot with IMAP, POP3,
# LMTP, both SQL drivers and Pigeonhole (Sieve: the mailbox owners' out-of-office and forwarding),
# postsrsd (sender rewriting, so forwarded mail passes SPF), OpenDKIM with OpenDBX's SQLite and PostgreSQL drivers (it reads
# the panel's signing keys), rspamd (the spam filter, a Postfix milter) with Redis for its statistics, ClamAV
# (clamd: rspamd refuses infected mail; optional, see deploy/README.md), openssl and the PostgreSQL client, swaks, and curl (the reports pipe hands DMARC and TLS reports to the panel). Idempotent: installed packages are left alone.
# Run as root. "No configuration" leaves /etc/postfix/main.cf absent: Maildesk's generated
# configuration is always used with `-c DIR`.
set -eu
packages="postfix postfix-sqlite postfix-pgsql dovecot-core dovecot-imapd dovecot-lmtpd dovecot-pop3d dovecot-sieve dovecot-sqlite dovecot-pgsql postsrsd opendkim opendkim-tools libopendbx1-sqlite3 libopendbx1-pgsql rspamd redis-server clamav clamav-daemon openssl postgresql-client swaks curl"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "mail packages already installed"
  exit 0
fi
echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' 2>/dev/null | head -1)" ]; then
  apt-get update -o DPkg::Lock::Timeout=300
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=300 \
  --no-install-recommends $missing
# Debian starts its own postfix, dovecot, opendkim, postsrsd, rspamd and clamd with their default configuration: Maildesk's
# run from the generated files instead (deploy/README.md), so the default services are stopped.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl disable --now postfix dovecot opendkim postsrsd rspamd clamav-daemon clamav-freshclam 2>/dev/null || true
fi
