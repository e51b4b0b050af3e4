"use server";

import { revalidatePath } from "next/cache";
import { consoleActionOperator, isRefused } from "@/lib/auth/console-action";
import { manageOperators, type OperatorFormState } from "@/lib/operator/operator-admin";

/** Every form of the Operators page (components/operator/operator-forms.tsx); the work is in lib/. */
export async function operatorsAction(_previous: OperatorFormState, form: FormData): Promise<OperatorFormState> {
  const operator = await consoleActionOperator({ permission: "manage_operators", fresh: true, returnTo: "/operator/operators" });
  if (isRefused(operator)) return { problem: operator.refused, confirm: operator.confirm };
  const state = await manageOperators(form, operator.actor);
  if (state.done) revalidatePath("/operator/operators");
  return state;
}
