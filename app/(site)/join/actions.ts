"use server";

import { headers } from "next/headers";
import { after } from "next/server";
import type { JoinFormState } from "@/lib/waitlist/join-state";
import { joinOnSite } from "@/lib/site/forms";

/** The join form's post (with or without a script): through the sign-up handler, back as the page's next state. */
export async function joinWaitlist(_previous: JoinFormState, form: FormData): Promise<JoinFormState> {
  return joinOnSite(form, new Headers(await headers()), after);
}
