/** How the site reaches its mail server, from SMTP_URL. */

/** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (TLS from the start). */
export function smtpServerOf(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
  };
}
