/**
 * Which email domains the waitlist takes. Throwaway (disposable) domains are
 * refused: the team could never reach the person, and the confirmation email
 * would go to a public inbox. The list is the disposable-email-domains project's,
 * through the `disposable-email-domains-js` package (updated with it; about 8,900
 * domains). Operators add to it and make exceptions with
 * WAITLIST_EMAIL_DOMAINS_DENY and WAITLIST_EMAIL_DOMAINS_ALLOW (docs/operations.md).
 *
 * Server-only: the list is 170 KB, which no visitor should download for one check.
 */
import "server-only";
import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import { domainOf } from "../mail/address";
import { singleton } from "../singleton";

/** Why an address is not taken: its domain is throwaway, or the operators refused it. */
type DomainRefusal = { reason: "disposable" | "denied"; domain: string };

export type DomainLists = {
  /** Taken even when throwaway: the operators' exceptions. */
  allow?: readonly string[];
  /** Refused as well: the operators' additions. */
  deny?: readonly string[];
};

const disposableDomains = () => singleton("disposable email domains", () => disposableEmailBlocklistSet());

/** The domain and each parent domain it sits under, longest first: a.b.example.com, b.example.com, example.com. */
function domainAndParents(domain: string): string[] {
  const labels = domain.split(".");
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join("."));
}

/**
 * The check for a site's lists, made once (the handler makes it when it is set
 * up, not per request): null when the address's domain is taken, otherwise why
 * not. A listed domain covers its subdomains (mail.mailinator.com is
 * mailinator.com). The allow list wins over both others, the deny list over the
 * throwaway list.
 */
export function domainPolicy(lists: DomainLists = {}): (email: string) => DomainRefusal | null {
  const allow = new Set(lists.allow);
  const deny = new Set(lists.deny);
  return (email) => {
    const domain = domainOf(email);
    if (!domain) return null;
    const candidates = domainAndParents(domain);
    if (candidates.some((candidate) => allow.has(candidate))) return null;
    if (candidates.some((candidate) => deny.has(candidate))) return { reason: "denied", domain };
    const disposable = disposableDomains();
    if (candidates.some((candidate) => disposable.has(candidate))) return { reason: "disposable", domain };
    return null;
  };
}

/** One address against the lists, for a one-off check (the operator tool's `check`). */
export function refusedDomain(email: string, lists: DomainLists = {}): DomainRefusal | null {
  return domainPolicy(lists)(email);
}

/** What the email field says about a refused domain. */
export function refusedDomainMessage(refusal: DomainRefusal): string {
  return `Please use an address you read: we can't reach you at ${refusal.domain}`;
}
