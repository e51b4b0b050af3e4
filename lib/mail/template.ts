/**
 * Emails the team writes (the invitation, an update to the list): a subject and a text with
 * {{name}} and {{company}}, checked the same way wherever they are written, and rendered for one
 * entry to the same text and HTML parts as the site's other mail. The text is the team's own; the
 * visitor's name and company go in as plain text (control characters removed), and the HTML part
 * escapes everything, so nothing typed into the form or the template becomes markup.
 */
import { z } from "zod";
import { emailHtml, escapeHtml, plain } from "./html";

export type TeamTemplate = { subject: string; body: string };
export type RenderedEmail = { subject: string; text: string; html: string };

const PLACEHOLDERS = ["name", "company"] as const;
const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

/** The placeholders in `text` that are not {{name}} or {{company}}. */
function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

const knownPlaceholders = (text: string) => unknownPlaceholders(text).length === 0;
const placeholderError = { error: "Use only {{name}} and {{company}} as placeholders." };

/** A subject: one line, no control characters (a CR or LF would start a header of its own). */
export const subjectSchema = z
  .string()
  .trim()
  .min(1, { error: "Write a subject." })
  .max(150, { error: "Keep the subject under 150 characters." })
  .refine((s) => !/[\r\n]/.test(s), { error: "The subject is one line." })
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { error: "The subject has a control character in it." })
  .refine(knownPlaceholders, placeholderError);

/** A text (a browser posts a textarea's line breaks as CRLF). */
export const bodySchema = z.preprocess(
  (value) => (typeof value === "string" ? value.replace(/\r\n?/g, "\n") : value),
  z
    .string()
    .trim()
    .min(1, { error: "Write the message." })
    .max(5000, { error: "Keep the message under 5,000 characters." })
    .refine(knownPlaceholders, placeholderError),
);

export const templateSchema = z.object({ subject: subjectSchema, body: bodySchema });

/** The entry's values a template may use, and whether its address is confirmed. */
export type TemplateEntry = { contactName: string; companyName: string; confirmedAt: Date | null };

/**
 * What a template may say about an address that has not confirmed it is theirs: nothing typed
 * into the form. Anyone can sign up someone else's address with a lure as the company ("Your
 * account is locked, call …"); mailed by the team, we would send the lure from our own domain. So
 * until the address is confirmed, {{name}} is left out and {{company}} is "your company"
 * (docs/security.md, "The follow-up").
 */
const UNCONFIRMED_COMPANY = "your company";

/** Without a name: "Hello {{name}}," is "Hello,", "…, {{name}}" ends before the comma, and "{{name}}, …" starts after it. */
const NAME_LEFT_OUT = /,?[ \t]*\{\{\s*name\s*\}\}(?:,[ \t]*(?=\S))?/g;
const SENTENCE_START = /(^|[.!?]\s+|\n\s*)$/;

function fill(text: string, entry: TemplateEntry): string {
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

/**
 * The template for one entry: the subject on one line, the text as written with the link to the
 * entry's page below it, the HTML escaped paragraph by paragraph under `heading`.
 */
export function renderTemplate(template: TeamTemplate, entry: TemplateEntry, link: string, heading: string): RenderedEmail {
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
  const html = emailHtml({ title: subject, heading, body: paragraphs, link, linkLabel: "Open my waitlist entry", footnote: FOOTNOTE });
  return { subject, text, html };
}
