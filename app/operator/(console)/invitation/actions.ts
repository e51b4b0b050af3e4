"use server";

import { revalidatePath } from "next/cache";
import { consoleActionOperator, isRefused } from "@/lib/auth/console-action";
import { saveTemplateFromForm, type EditorState } from "@/lib/follow-up/template-editor";

/** The invitation editor's form (components/operator/invitation-editor.tsx); the work is in lib/. */
export async function saveInvitation(_previous: EditorState, form: FormData): Promise<EditorState> {
  const operator = await consoleActionOperator({ permission: "edit_invitation", fresh: true, returnTo: "/operator/invitation" });
  if (isRefused(operator)) {
    const values = { subject: String(form.get("subject") ?? ""), body: String(form.get("body") ?? "") };
    return { values, problems: { form: operator.refused }, saved: false, confirm: operator.confirm };
  }
  const state = await saveTemplateFromForm(form, operator.actor);
  // The page's preview and "last saved" line come back with the answer.
  if (state.saved) revalidatePath("/operator/invitation");
  return state;
}
