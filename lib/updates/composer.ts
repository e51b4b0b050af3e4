/**
 * The console's update form (/operator/updates): one form, three buttons. "Check" counts the
 * segment and previews the update for a real entry of it; "Send a test to me" mails that preview to
 * the operator; "Send" queues it (./updates.ts). Each answers with what the form shows next. The
 * form carries a random key made with the page, so a second post of the same form (a double click)
 * finds the update the first made and sends nothing more.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { Actor } from "../audit/trail";
import { isTemporary, whileBusy, type Database } from "../db";
import { errorFields, log } from "../log";
import type { SenderSettings } from "../mail/smtp";
import { SEGMENT_KEYS } from "./segment";
import { sendTestMessage } from "./test-message";
import { countRecipients, MAIL_OFF, parseUpdate, previewUpdate, sendUpdate, UpdateRefused, type Preview } from "./updates";

const COMPOSER_FIELDS = ["subject", "body", ...SEGMENT_KEYS] as const;
export type ComposerField = (typeof COMPOSER_FIELDS)[number];
export const COMPOSER_INTENTS = ["check", "test", "send"] as const;
export type ComposerIntent = (typeof COMPOSER_INTENTS)[number];

export type ComposerState = {
  values: Partial<Record<ComposerField, string>>;
  /** This form's key (a double click sends one update); a new one after each send. */
  requestKey: string;
  problems: { subject?: string; body?: string; segment?: string; form?: string };
  /** After Check: how many entries the segment holds, and the update as one of them gets it. */
  checked?: { count: number; preview: Preview | null };
  /** After a test: where it went. */
  tested?: string;
  /** After Send: the update and how many it was queued for (created: false when this form had sent it already). */
  sent?: { id: number; queued: number; created: boolean };
  /** The step-up page, when the act needs a fresh passkey sign-in first. */
  confirm?: string;
};

export function emptyComposer(): ComposerState {
  return { values: {}, requestKey: randomUUID(), problems: {} };
}

/** The form's fields as typed. */
export function composerValues(form: FormData): ComposerState["values"] {
  return Object.fromEntries(COMPOSER_FIELDS.map((key) => [key, String(form.get(key) ?? "")]));
}

type ComposerServices = { database: Database; sender: SenderSettings | null; siteUrl: string; deliverSoon?: () => void };

/** One press of one of the form's buttons, by `operator` (already let through by the console's guard). */
export async function answerComposer(
  form: FormData,
  intent: ComposerIntent,
  operator: { actor: Actor; email: string },
  services: ComposerServices,
): Promise<ComposerState> {
  const values = composerValues(form);
  const requestKey = String(form.get("requestKey") ?? "") || randomUUID();
  const state: ComposerState = { values, requestKey, problems: {} };
  const parsed = parseUpdate(values);
  if ("problems" in parsed) return { ...state, problems: parsed.problems };
  const { database } = services;
  if (intent !== "check" && !services.sender) return { ...state, problems: { form: MAIL_OFF } };
  try {
    if (intent === "send") {
      const sent = await whileBusy(database, (db) => sendUpdate(db, parsed.input, requestKey, operator.actor));
      services.deliverSoon?.();
      // A new key: the next update written in this form is another one.
      return { ...state, requestKey: randomUUID(), sent };
    }
    const [count, preview] = await Promise.all([countRecipients(database, parsed.input.segment), previewUpdate(database, parsed.input)]);
    if (count === 0 || !preview)
      return {
        ...state,
        checked: { count: 0, preview: null },
        problems: { segment: "Nobody on the list is in this segment (or everyone in it unsubscribed or bounced)." },
      };
    if (intent === "test") {
      await sendTestMessage(services.sender, operator.email, preview, services.siteUrl);
      return { ...state, checked: { count, preview }, tested: operator.email };
    }
    return { ...state, checked: { count, preview } };
  } catch (error) {
    if (error instanceof UpdateRefused) return { ...state, problems: { [error.field]: error.message } };
    if (!isTemporary(error)) throw error;
    log.warn({ fault: "database_unavailable", ...errorFields(error) }, "update form not answered: database busy");
    return { ...state, problems: { form: "The database is busy, and nothing was sent. Please try again in a moment." } };
  }
}
