#!/bin/sh
# Installs the Debian packages the mail-server suite (npm run test:mail) and a real
# Maildesk mail server need: Postfix with SQLite and PostgreSQL maps, Dovecot with IMAP,
# LMTP and both SQL drivers, and swaks. Idempotent: installed packages are left alone.
# Run as root. "No configuration" leaves /etc/postfix/main.cf absent: Maildesk's generated
# configuration is always used with `-c DIR`.
set -eu
packages="postfix postfix-sqlite postfix-pgsql dovecot-core dovecot-imapd dovecot-lmtpd dovecot-sqlite dovecot-pgsql swaks"
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
