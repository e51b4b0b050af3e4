"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { currentOperator, SIGN_IN_PATH } from "@/lib/auth/session";
import { saveTemplateFromForm, type EditorState } from "@/lib/follow-up/template-editor";

/** The invitation editor's form (components/operator/invitation-editor.tsx); the work is in lib/. */
export async function saveInvitation(_previous: EditorState, form: FormData): Promise<EditorState> {
  const operator = await currentOperator();
  if (!operator) redirect(SIGN_IN_PATH);
  const state = await saveTemplateFromForm(form, operator.actor);
  // The page's preview and "last saved" line come back with the answer.
  if (state.saved) revalidatePath("/operator/invitation");
  return state;
}
