/**
 * The invitation email: a template the operators edit in the console (subject and
 * text, with {{name}} and {{company}}), kept in email_templates, and rendered for
 * one entry as every team-written email is (lib/mail/template.ts).
 * When an entry is invited, the template as it is then is copied into its outbox
 * row (lib/follow-up/changes.ts), so an edit later never changes a message on its way.
 */
import "server-only";
import { FIGURES, SITE } from "../content/site";
import type { Database } from "../db";
import { renderTemplate, templateSchema, type RenderedEmail, type TeamTemplate, type TemplateEntry } from "../mail/template";

const INVITATION_TEMPLATE_KEY = "invitation";

export type InvitationTemplate = TeamTemplate;
type SavedTemplate = InvitationTemplate & { updatedAt: Date | null; updatedBy: string | null };

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

/** What the console's form may save (lib/mail/template.ts). */
export { templateSchema };

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

/** The template for one entry (lib/mail/template.ts), under the invitation's heading. */
export function renderInvitation(template: InvitationTemplate, entry: TemplateEntry, link: string): RenderedEmail {
  return renderTemplate(template, entry, link, "You're invited");
}
