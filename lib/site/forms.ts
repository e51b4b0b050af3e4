/**
 * The site's two forms that work without script, as their Server Actions call them: the join page
 * (app/(site)/join) and "Email me my link again" (app/(site)/waitlist/link), with the running
 * site's services (./services.ts).
 */
import "server-only";
import { visitHandler } from "../analytics/site";
import { JOIN_PATH } from "../content/paths";
import { ownOrigins } from "../security/origin";
import { firstJoinState, joinByForm, joinSource } from "../waitlist/join-form";
import type { JoinFormState } from "../waitlist/join-state";
import { requestLinkAgain, type LinkAgainState } from "../waitlist/link-again";
import { services } from "./services";

/**
 * The join page's first state: a new question, and where the visitor came from (a Referer from
 * SITE_URL or from the address this request came in on counts as one of our pages).
 */
export function firstJoinStateOnSite(headers: Headers, search: URLSearchParams): JoinFormState {
  const site = services();
  const request = { url: `http://${headers.get("host") ?? "localhost"}${JOIN_PATH}`, headers };
  return firstJoinState(site.secret, site.now(), joinSource(headers.get("referer"), search, ownOrigins(request, site.siteOrigin)));
}

/**
 * A post of the join form (its Server Action). A post that passed the form's own checks (joined,
 * or refused as a whole: a duplicate, a busy moment) is also the funnel's "sent", as the dialog
 * counts it once its own checks pass; it is counted after the answer, on the page the form says
 * the visitor came from (as source_page).
 */
export async function joinOnSite(form: FormData, headers: Headers, afterResponse: (work: () => void) => void): Promise<JoinFormState> {
  const state = await joinByForm(form, { headers, services: { ...services(), afterResponse } });
  if (state.outcome === "joined" || (state.message !== undefined && !state.answerError && Object.keys(state.errors).length === 0)) {
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" && value ? value : undefined;
    };
    const campaign = { utm_source: field("utm_source"), utm_medium: field("utm_medium"), utm_campaign: field("utm_campaign") };
    afterResponse(() => void visitHandler().countStep(headers, "submit", field("source_page") ?? JOIN_PATH, campaign));
  }
  return state;
}

/** A post of "Email me my link again" (its Server Action): the same answer whatever the address. */
export function linkAgainOnSite(
  form: FormData,
  headers: Headers,
  afterResponse: (work: () => Promise<void>) => void,
): Promise<LinkAgainState> {
  const site = services();
  return requestLinkAgain(form, {
    headers,
    limiter: site.formPosts,
    deliveries: site.deliveries.deliveryKinds,
    deliverSoon: () => site.deliveries.deliverSoon(),
    afterResponse,
    database: site.database,
  });
}
