/**
 * The invitation email: a template the operators edit in the console (subject and
 * text, with {{name}} and {{company}}), kept in email_templates, and its rendering
 * for one entry. The text is the operators' own; the visitor's name and company go
 * in as plain text (control characters removed), and the HTML part escapes
 * everything, so nothing typed into the form or the template becomes markup.
 * When an entry is invited, the template as it is then is copied into its outbox
 * row (lib/follow-up/changes.ts), so an edit later never changes a message on its way.
 */
import "server-only";
import { z } from "zod";
import { FIGURES, SITE } from "../content/site";
import type { Database } from "../db";
import type { WaitlistEntry } from "../generated/prisma/client";
import { emailHtml, escapeHtml, plain } from "../mail/html";

const INVITATION_TEMPLATE_KEY = "invitation";
const PLACEHOLDERS = ["name", "company"] as const;

export type InvitationTemplate = { subject: string; body: string };
type SavedTemplate = InvitationTemplate & { updatedAt: Date | null; updatedBy: string | null };
type RenderedEmail = { subject: string; text: string; html: string };

export const DEFAULT_INVITATION: InvitationTemplate = {
  subject: `You're invited to ${SITE.name}, {{name}}`,
  body: [
    "Hello {{name}},",
    "",
    `Thank you for waiting with us. {{company}} has one of our ${FIGURES.foundingMemberLimit} founding-member spots: ${SITE.name} at ${FIGURES.foundingDiscount} off, set up together with our team.`,
    "",
    "Reply to this email with a time that suits you, and we will get your crew, your price book and your first jobs into the app on a short call.",
    "",
    `The ${SITE.name} team`,
  ].join("\n"),
};

const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

const knownPlaceholders = (text: string) => unknownPlaceholders(text).length === 0;
const placeholderError = { error: "Use only {{name}} and {{company}} as placeholders." };

/** What the console's form may save. */
export const templateSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, { error: "Write a subject." })
    .max(150, { error: "Keep the subject under 150 characters." })
    .refine((s) => !/[\r\n]/.test(s), { error: "The subject is one line." })
    .refine(knownPlaceholders, placeholderError),
  // A browser posts a textarea's line breaks as CRLF.
  body: z.preprocess(
    (value) => (typeof value === "string" ? value.replace(/\r\n?/g, "\n") : value),
    z
      .string()
      .trim()
      .min(1, { error: "Write the message." })
      .max(5000, { error: "Keep the message under 5,000 characters." })
      .refine(knownPlaceholders, placeholderError),
  ),
});

export async function loadInvitationTemplate(database: Pick<Database, "emailTemplate">): Promise<SavedTemplate> {
  const row = await database.emailTemplate.findUnique({ where: { key: INVITATION_TEMPLATE_KEY } });
  return row
    ? { subject: row.subject, body: row.body, updatedAt: row.updatedAt, updatedBy: row.updatedBy }
    : { ...DEFAULT_INVITATION, updatedAt: null, updatedBy: null };
}

export async function saveInvitationTemplate(
  database: Pick<Database, "emailTemplate">,
  template: InvitationTemplate,
  by: string,
  now = new Date(),
): Promise<void> {
  const data = { subject: template.subject, body: template.body, updatedAt: now, updatedBy: by };
  await database.emailTemplate.upsert({
    where: { key: INVITATION_TEMPLATE_KEY },
    create: { key: INVITATION_TEMPLATE_KEY, ...data },
    update: data,
  });
}

type InvitedEntry = Pick<WaitlistEntry, "contactName" | "companyName" | "confirmedAt">;

/**
 * What an invitation may say about an address that has not confirmed it is theirs: nothing
 * typed into the form. Anyone can sign up someone else's address with a lure as the company
 * ("Your account is locked, call …"); once an operator invited that entry, we would mail the
 * lure from our own domain. So until the address is confirmed, {{name}} is left out and
 * {{company}} is "your company" (docs/security.md, "The follow-up").
 */
const UNCONFIRMED_COMPANY = "your company";

/** Without a name: "Hello {{name}}," is "Hello,", "…, {{name}}" ends before the comma, and "{{name}}, …" starts after it. */
const NAME_LEFT_OUT = /,?[ \t]*\{\{\s*name\s*\}\}(?:,[ \t]*(?=\S))?/g;
const SENTENCE_START = /(^|[.!?]\s+|\n\s*)$/;

function fill(text: string, entry: InvitedEntry): string {
  if (entry.confirmedAt) {
    const values: Record<string, string> = { name: entry.contactName, company: entry.companyName };
    return text.replace(PLACEHOLDER, (whole, name: string) => (name in values ? plain(values[name]!).trim() : whole));
  }
  const withoutName = text.replace(NAME_LEFT_OUT, "");
  return withoutName.replace(PLACEHOLDER, (whole, name: string, offset: number) => {
    if (name !== "company") return whole;
    // Our own words, so they start a sentence with a capital.
    return SENTENCE_START.test(withoutName.slice(0, offset)) ? "Your company" : UNCONFIRMED_COMPANY;
  });
}

const FOOTNOTE = "Your entry, and the choice to leave the waitlist, stay at this link.";

/** The template for one entry: the subject on one line, the text as written, the HTML escaped paragraph by paragraph. */
export function renderInvitation(template: InvitationTemplate, entry: InvitedEntry, link: string): RenderedEmail {
  const subject = fill(template.subject, entry).replace(/\s+/g, " ").trim();
  const body = fill(template.body, entry);
  const text = `${body}\n\n${FOOTNOTE}\n${link}\n`;
  const paragraphs = body
    .split(/\n{2,}/)
    .map(
      (paragraph) =>
        `<p style="margin:0 0 16px;font-size:16px;line-height:1.6;color:#334155">${paragraph.split("\n").map(escapeHtml).join("<br>")}</p>`,
    )
    .join("\n");
  const html = emailHtml({
    title: subject,
    heading: "You're invited",
    body: paragraphs,
    link,
    linkLabel: "Open my waitlist entry",
    footnote: FOOTNOTE,
  });
  return { subject, text, html };
}
