/**
 * What a mail system's refusal says (./bounces.ts): that the mailbox is gone, or something about
 * this message or about how the site sends. Light enough for the sending thread.
 */

/**
 * Enhanced status codes (RFC 3463) that say the address itself will never take mail: bad mailbox
 * (5.1.1), bad or mail-less domain (5.1.2, 5.1.10: null MX), bad address syntax (5.1.3), moved
 * without a forwarding address (5.1.6), disabled (5.2.1). Everything else (policy and spam 5.7.x,
 * the sender's address 5.1.7/5.1.8, the system 5.3.x, the content 5.6.x, a full mailbox 5.2.2)
 * says nothing about whether the mailbox exists.
 */
const MAILBOX_GONE = new Set(["5.1.1", "5.1.2", "5.1.3", "5.1.6", "5.1.10", "5.2.1"]);

export function isMailboxGone(status: string): boolean {
  return MAILBOX_GONE.has(status);
}

/** The enhanced status code right after an SMTP reply's basic code ("550 5.1.1 ...", "550-5.1.1 ..."), if it has one. */
function enhancedStatusOf(response: unknown): string | null {
  if (typeof response !== "string") return null;
  return /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})(?=\s|$)/.exec(response.trimStart())?.[1] ?? null;
}

/** A permanent refusal while sending: whether it says the mailbox is gone, and its codes ("550 5.1.1 at RCPT TO"). */
type SmtpRefusal = { mailboxGone: boolean; code: string };

/**
 * A permanent SMTP failure (a 5xx) read: the mailbox is gone only when the server refused the
 * recipient (RCPT TO) with one of MAILBOX_GONE's codes. A 5xx at any other step, or at RCPT TO with
 * any other code (or none), refuses this message only. Null when the failure may pass (a 4xx, no
 * connection). The code never carries the server's text, which may name the recipient.
 */
export function smtpRefusalOf(error: { responseCode?: unknown; command?: unknown; response?: unknown }): SmtpRefusal | null {
  const basic = error.responseCode;
  if (typeof basic !== "number" || basic < 500 || basic > 599) return null;
  const enhanced = enhancedStatusOf(error.response);
  const step =
    typeof error.command === "string"
      ? error.command
          .replace(/[^A-Za-z ]/g, "")
          .slice(0, 12)
          .toUpperCase()
      : "";
  return {
    mailboxGone: step === "RCPT TO" && enhanced !== null && isMailboxGone(enhanced),
    code: [basic, enhanced].filter(Boolean).join(" ") + (step ? ` at ${step}` : ""),
  };
}
