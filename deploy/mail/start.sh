#!/bin/sh
# Configure Postfix and Dovecot from the environment, then run both.
#   MAIL_DOMAIN    the domain players write to (judge@MAIL_DOMAIN)
#   MAIL_PASSWORD  the password of the account `judge` (IMAP and submission)
#   RELAYHOST      optional smarthost for outgoing mail, e.g. [smtp.example.org]:587
set -eu
: "${MAIL_DOMAIN:?set MAIL_DOMAIN}" "${MAIL_PASSWORD:?set MAIL_PASSWORD}"
printf 'judge:{PLAIN}%s\n' "$MAIL_PASSWORD" > /etc/dovecot/users
chown root:dovecot /etc/dovecot/users && chmod 640 /etc/dovecot/users
chown vmail:vmail /var/mail
postconf -e \
  "myhostname=$MAIL_DOMAIN" "mydestination=localhost" \
  "virtual_mailbox_domains=$MAIL_DOMAIN" \
  "virtual_mailbox_maps=inline:{judge@$MAIL_DOMAIN=judge}" \
  "virtual_transport=lmtp:unix:private/dovecot-lmtp" \
  "recipient_delimiter=+" \
  "smtpd_sasl_type=dovecot" "smtpd_sasl_path=private/auth" \
  "smtpd_relay_restrictions=permit_mynetworks permit_sasl_authenticated reject_unauth_destination" \
  "mynetworks=127.0.0.0/8" "relayhost=${RELAYHOST:-}" "maillog_file=/dev/stdout"
postconf -M "submission/inet=submission inet n - n - - smtpd"
postconf -P "submission/inet/smtpd_sasl_auth_enable=yes" \
            "submission/inet/smtpd_tls_security_level=none" \
            "submission/inet/smtpd_client_restrictions=permit_sasl_authenticated,reject"
dovecot
exec postfix start-fg
