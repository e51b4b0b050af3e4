/**
 * Saving the invitation template from the console's editor: checked with the
 * template's schema, saved with an audit row, and answered with what to show
 * (the values as typed, each field's problem, or "saved"). A busy database is
 * said in words and nothing is saved.
 */
import "server-only";
import { getDatabase, isTemporary, whileBusy } from "../db";
import { errorFields, log } from "../log";
import { recordAction, type Actor } from "../audit/trail";
import { saveInvitationTemplate, templateSchema } from "./invitation";

export type EditorState = {
  values: { subject: string; body: string };
  problems: { subject?: string; body?: string; form?: string };
  saved: boolean;
  /** The step-up page, when the save needs a fresh passkey sign-in first. */
  confirm?: string;
};

export async function saveTemplateFromForm(form: FormData, actor: Actor): Promise<EditorState> {
  const values = { subject: String(form.get("subject") ?? ""), body: String(form.get("body") ?? "") };
  const parsed = templateSchema.safeParse(values);
  if (!parsed.success) {
    const problems: EditorState["problems"] = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] === "subject" ? "subject" : "body";
      problems[key] ??= issue.message;
    }
    return { values, problems, saved: false };
  }
  try {
    const database = getDatabase();
    await whileBusy(database, (db) =>
      db.$transaction(async (tx) => {
        await saveInvitationTemplate(tx, parsed.data, actor.email);
        await recordAction(tx, { actor, action: "invitation_edited" });
      }),
    );
  } catch (error) {
    if (!isTemporary(error)) throw error;
    log.warn({ fault: "database_unavailable", ...errorFields(error) }, "invitation template not saved: database busy");
    return { values, problems: { form: "The database is busy, and nothing was saved. Please try again in a moment." }, saved: false };
  }
  return { values: parsed.data, problems: {}, saved: true };
}
