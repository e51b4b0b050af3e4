/** The brand and the marketing figures (spec section 9), used by every page. */

import { JOIN_PATH, LINK_AGAIN_PATH, PRIVACY_PATH } from "./paths";

export const SITE = {
  name: "FieldCrew",
  tagline: "The all-in-one business app for field-service companies",
  description:
    "FieldCrew brings scheduling, dispatch, invoicing, payments, reminders and time tracking together for HVAC, plumbing, electrical, contracting and landscaping businesses. Join the waitlist for founding-member pricing.",
  contactEmail: "hello@fieldcrew.app",
} as const;

/**
 * Static marketing figures, reproduced exactly as the spec gives them. The
 * "spots left" numbers differ on purpose: the spec asks for 53 in the hero,
 * 24 in the closing call to action and 47 in the dialog.
 */
export const FIGURES = {
  companiesWaiting: 524,
  companiesSecured: 476,
  foundingMemberLimit: 100,
  foundingDiscount: "50%",
  responseHours: 48,
  spotsLeft: { hero: 53, closing: 24, dialog: 47 },
} as const;

export const TRADES_SERVED = [
  "HVAC",
  "Plumbing",
  "Electrical",
  "General Contractors",
  "Landscaping",
  "Cleaning",
  "Pest Control",
  "Roofing",
] as const;

type NavLink = { href: string; label: string };

export const HEADER_LINKS: readonly NavLink[] = [
  { href: "/#features", label: "Features" },
  { href: "/#testimonials", label: "Testimonials" },
  { href: "/#pricing", label: "Pricing" },
  { href: "/about", label: "About" },
  { href: "/careers", label: "Careers" },
];

export const FOOTER_LINKS: readonly { heading: string; links: readonly NavLink[] }[] = [
  {
    heading: "Product",
    links: [
      { href: "/#features", label: "Features" },
      { href: "/#testimonials", label: "Testimonials" },
      { href: "/#pricing", label: "Pricing" },
    ],
  },
  {
    heading: "Company",
    links: [
      { href: "/about", label: "About" },
      { href: "/careers", label: "Careers" },
    ],
  },
  {
    heading: "Waitlist",
    links: [
      { href: JOIN_PATH, label: "Join the waitlist" },
      { href: LINK_AGAIN_PATH, label: "Email me my link again" },
      { href: PRIVACY_PATH, label: "Privacy notice" },
    ],
  },
];
