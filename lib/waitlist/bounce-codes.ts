/** Which SMTP failures are bounces (./bounces.ts): light enough for the sending thread. */

/** Whether an SMTP failure says this recipient will never receive mail, rather than something about this message or the server. */
export function isRecipientRefused(error: { responseCode?: unknown; command?: unknown; response?: unknown }): boolean {
  const code = error.responseCode;
  if (typeof code !== "number" || code < 500 || code > 599) return false;
  if (error.command === "RCPT TO") return true;
  return typeof error.response === "string" && /\b5\.(1\.\d|2\.1)\b/.test(error.response);
}
