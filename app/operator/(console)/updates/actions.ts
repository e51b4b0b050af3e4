"use server";

import { revalidatePath } from "next/cache";
import { guardConsoleAction } from "@/lib/auth/console-guard";
import { answerComposer, COMPOSER_INTENTS, composerValues, type ComposerIntent, type ComposerState } from "@/lib/updates/composer";
import { updateFormServices } from "@/lib/site/services";

/** The update form's three buttons (components/operator/update-composer.tsx); the work is in lib/. */
export async function updateFormAction(previous: ComposerState, form: FormData): Promise<ComposerState> {
  const asked = form.get("intent");
  const intent: ComposerIntent = (COMPOSER_INTENTS as readonly unknown[]).includes(asked) ? (asked as ComposerIntent) : "check";
  // Checking reads the list; a test and a send go out in the team's name, so they need a fresh sign-in.
  const guard = await guardConsoleAction({ permission: "send_update", fresh: intent !== "check", returnTo: "/operator/updates" });
  if ("refused" in guard)
    return { ...previous, values: composerValues(form), problems: { form: guard.refused.message }, confirm: guard.refused.confirm };
  const state = await answerComposer(form, intent, guard.operator, updateFormServices());
  if (state.sent) revalidatePath("/operator/updates");
  return state;
}
