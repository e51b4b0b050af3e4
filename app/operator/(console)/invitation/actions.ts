"use server";

import { redirect } from "next/navigation";
import { currentOperator, SIGN_IN_PATH } from "@/lib/auth/session";
import { saveTemplateFromForm, type EditorState } from "@/lib/follow-up/template-editor";

/** The invitation editor's form (components/operator/invitation-editor.tsx); the work is in lib/. */
export async function saveInvitation(_previous: EditorState, form: FormData): Promise<EditorState> {
  const operator = await currentOperator();
  if (!operator) redirect(SIGN_IN_PATH);
  return saveTemplateFromForm(form, operator.actor);
}
