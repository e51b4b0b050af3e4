"use server";

import { headers } from "next/headers";
import { after } from "next/server";
import type { LinkAgainState } from "@/lib/waitlist/link-again";
import { linkAgainOnSite } from "@/lib/site/forms";

/** "Email me my link again": the same answer for every well-formed address; any email is sent after it. */
export async function askForLinkAgain(_previous: LinkAgainState, form: FormData): Promise<LinkAgainState> {
  return linkAgainOnSite(form, new Headers(await headers()), after);
}
