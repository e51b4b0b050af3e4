#!/bin/sh
# Hands one report of undelivered mail to the site (docs/operations.md, "Bounces"). The mail server
# runs it from an alias with the message on standard input, as the user that owns the alias map:
#
#   fieldcrew-bounces: "|/usr/local/bin/fieldcrew-bounce-pipe https://fieldcrew.app/api/mail/bounces"
#
# The bounce secret stays out of the alias map and out of `ps`: curl reads it from a file of that
# user's alone (mode 0600), FIELDCREW_BOUNCE_CURL_CONFIG or /etc/fieldcrew/bounce.curl, one line:
#
#   header = "Authorization: Bearer <MAIL_BOUNCE_SECRET>"
#
# Exit codes are what Postfix and Exim read (sysexits): 0 taken; 75 try again later (the site is
# down or busy, or refuses the secret: nothing is lost while it is fixed); 65 a report the site
# cannot read (the mail log keeps the line below).
set -u
url=${1:?usage: mail-bounce-pipe URL}
config=${FIELDCREW_BOUNCE_CURL_CONFIG:-/etc/fieldcrew/bounce.curl}

# The site reads at most 64 KiB; a report's recipients come first, so the rest is read and dropped.
status=$(
  { head -c 65536; cat >/dev/null; } |
    curl --silent --show-error --max-time 30 --output /dev/null --write-out '%{http_code}' \
      --config "$config" \
      --header 'Content-Type: message/rfc822' \
      --header "X-Original-To: ${ORIGINAL_RECIPIENT:-}" \
      --data-binary @- "$url"
) || {
  echo "fieldcrew-bounce-pipe: could not reach $url; the mail server will try again" >&2
  exit 75
}
case "$status" in
  2??) exit 0 ;;
  400 | 413 | 415)
    echo "fieldcrew-bounce-pipe: the site could not read this report (HTTP $status)" >&2
    exit 65
    ;;
  *)
    echo "fieldcrew-bounce-pipe: the site did not take the report (HTTP $status); the mail server will try again" >&2
    exit 75
    ;;
esac
