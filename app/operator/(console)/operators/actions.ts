"use server";

import { revalidatePath } from "next/cache";
import { guardConsoleAction } from "@/lib/auth/console-guard";
import { manageOperators, type OperatorFormState } from "@/lib/console/operator-admin";

/** Every form of the Operators page (components/operator/operator-forms.tsx); the work is in lib/. */
export async function operatorsAction(_previous: OperatorFormState, form: FormData): Promise<OperatorFormState> {
  const guard = await guardConsoleAction({ permission: "manage_operators", fresh: true, returnTo: "/operator/operators" });
  if ("refused" in guard) return { problem: guard.refused.message, confirm: guard.refused.confirm };
  const state = await manageOperators(form, guard.operator.actor);
  if (state.done) revalidatePath("/operator/operators");
  return state;
}
