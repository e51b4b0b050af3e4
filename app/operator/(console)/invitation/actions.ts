"use server";

import { revalidatePath } from "next/cache";
import { guardConsoleAction } from "@/lib/auth/console-guard";
import { saveTemplateFromForm, type EditorState } from "@/lib/follow-up/template-editor";

/** The invitation editor's form (components/operator/invitation-editor.tsx); the work is in lib/. */
export async function saveInvitation(_previous: EditorState, form: FormData): Promise<EditorState> {
  const guard = await guardConsoleAction({ permission: "edit_invitation", fresh: true, returnTo: "/operator/invitation" });
  if ("refused" in guard) {
    const values = { subject: String(form.get("subject") ?? ""), body: String(form.get("body") ?? "") };
    return { values, problems: { form: guard.refused.message }, saved: false, confirm: guard.refused.confirm };
  }
  const state = await saveTemplateFromForm(form, guard.operator.actor);
  // The page's preview and "last saved" line come back with the answer.
  if (state.saved) revalidatePath("/operator/invitation");
  return state;
}
