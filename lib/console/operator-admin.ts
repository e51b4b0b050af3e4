/**
 * The console's Operators page (admins only): the forms' work, so the page's Server
 * Action stays a few lines. An enrolment link is shown once in the answer (never put
 * in an address) and, with SMTP set, emailed to the new operator as well.
 */
import "server-only";
import { ENROLMENT_HOURS } from "../auth/invitations";
import { sendEnrolmentLink } from "../auth/emails";
import { isRole } from "../auth/roles";
import { getDatabase, isTemporary } from "../db";
import { parseEnv } from "../env";
import { errorFields, log } from "../log";
import type { Actor } from "../audit/trail";
import { addOperator, changeRole, enrolAgain, OperatorProblem, removeOperator, type Enrolment } from "./operators";
import { utcMinute } from "./format";
import { senderFromEnv } from "../mail/smtp";

export type OperatorFormState = {
  /** A fixed sentence of ours about what happened. */
  done?: string;
  problem?: string;
  /** The enrolment link, shown once, when it was not emailed. */
  link?: string;
  /** The step-up page, when the act needs a fresh passkey sign-in first. */
  confirm?: string;
};

/** Sends the enrolment link by email when mail is on; otherwise (or when sending fails) the page shows it once. */
async function deliverEnrolmentLink(enrolment: Enrolment, what: string): Promise<OperatorFormState> {
  const sender = senderFromEnv(parseEnv());
  const until = utcMinute(enrolment.expiresAt);
  if (sender) {
    try {
      await sendEnrolmentLink(sender, enrolment.email, enrolment.link, ENROLMENT_HOURS);
      return { done: `${what} The one-time enrolment link was emailed to ${enrolment.email}; it works until ${until} UTC.` };
    } catch (error) {
      log.error({ fault: "enrolment_mail_failed", ...errorFields(error) }, "emailing an enrolment link failed");
      return {
        done: `${what} Emailing the link failed, so here it is, once: pass it on privately. It works until ${until} UTC.`,
        link: enrolment.link,
      };
    }
  }
  return {
    done: `${what} Here is their one-time enrolment link, shown once: pass it on privately. It works until ${until} UTC.`,
    link: enrolment.link,
  };
}

/** One form of the Operators page: intent add (email, name, role), enrol, role (email, role) or remove (email, confirm). */
export async function manageOperators(form: FormData, actor: Actor): Promise<OperatorFormState> {
  const database = getDatabase();
  const siteUrl = parseEnv().SITE_URL;
  const intent = form.get("intent");
  const email = String(form.get("email") ?? "");
  const role = form.get("role");
  try {
    if (intent === "add") {
      if (!isRole(role)) return { problem: "Choose a role: member or admin." };
      const enrolment = await addOperator(database, { email, name: String(form.get("name") ?? ""), role }, siteUrl, actor);
      return deliverEnrolmentLink(enrolment, `${enrolment.email} is now an operator (${role}).`);
    }
    if (intent === "enrol")
      return deliverEnrolmentLink(await enrolAgain(database, email, siteUrl, actor), `A new enrolment link for ${email}.`);
    if (intent === "role") {
      if (!isRole(role)) return { problem: "Choose a role: member or admin." };
      return (await changeRole(database, email, role, actor))
        ? { done: `${email} is now ${role === "admin" ? "an admin" : "a member"}.` }
        : { problem: `${email} is not an operator.` };
    }
    if (intent === "remove") {
      if (form.get("confirm") !== "yes") return { problem: `Tick the box to confirm removing ${email}.` };
      return (await removeOperator(database, email, actor))
        ? { done: `Removed ${email}: their passkeys, sessions and links no longer work.` }
        : { problem: `${email} is not an operator.` };
    }
    return { problem: "That form could not be read. Reload the page and try again." };
  } catch (error) {
    if (error instanceof OperatorProblem) return { problem: error.message };
    if (isTemporary(error)) return { problem: "The database is busy, and nothing was changed. Please try again in a moment." };
    throw error;
  }
}
