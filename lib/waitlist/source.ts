/**
 * Where a sign-up came from: the page the dialog was used on, and the
 * campaign (utm_source, utm_medium, utm_campaign) of the URL the visit landed
 * on. Runs in the browser on every page, so it stays small and zod-free.
 */
import { LIMITS } from "./limits";
import type { SignupSource } from "./schema";

const UTM_FIELDS = ["utm_source", "utm_medium", "utm_campaign"] as const;

/** sessionStorage: the campaign lasts for the visit in this tab, across pages and reloads. */
const STORAGE_KEY = "fieldcrew.campaign";

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

/**
 * Remembers the campaign of a landing URL's query string. A later landing with
 * utm parameters replaces it (the last campaign wins); pages without them keep it.
 */
export function rememberCampaign(search: string, storage: Storage | undefined): void {
  const campaign = campaignIn(new URLSearchParams(search));
  if (Object.keys(campaign).length === 0) return;
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(campaign));
  } catch {
    // Storage can be full or switched off; the sign-up then goes without a campaign.
  }
}

/** The utm parameters of a query string that have a value, trimmed and clamped; {} for none. */
export function campaignIn(params: URLSearchParams): Record<string, string> {
  const campaign: Record<string, string> = {};
  for (const field of UTM_FIELDS) {
    const value = params.get(field)?.trim();
    if (value) campaign[field] = value.slice(0, LIMITS.utm);
  }
  return campaign;
}

function recalledCampaign(storage: Storage | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The source fields to send with a sign-up made on `pathname`, clamped to what the server accepts. */
export function signupSource(pathname: string, storage: Storage | undefined): SignupSource {
  return sourceOf(pathname, recalledCampaign(storage));
}

/** A sign-up's source fields from its page's path and a campaign (remembered, or read from a query string). */
export function sourceOf(pathname: string, campaign: Record<string, unknown>): SignupSource {
  const text = (value: unknown) => (typeof value === "string" && value ? value.slice(0, LIMITS.utm) : null);
  return {
    source_page: pathname.startsWith("/") ? pathname.slice(0, LIMITS.sourcePage) : null,
    utm_source: text(campaign.utm_source),
    utm_medium: text(campaign.utm_medium),
    utm_campaign: text(campaign.utm_campaign),
  };
}

/** The tab's sessionStorage, or undefined where the browser refuses access to it. */
export function visitStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}
