/** Each page's path, title and description: the source for <title>, Open Graph and the sitemap. */

import { JOIN_PATH, LINK_AGAIN_PATH, PRIVACY_PATH } from "./paths";

export type PageInfo = { path: string; title: string; description: string };

export const PAGES = {
  home: {
    path: "/",
    title: "FieldCrew: scheduling, dispatch and invoicing for field-service businesses",
    description:
      "One app to schedule jobs, dispatch crews, invoice on site and get paid. Built for HVAC, plumbing, electrical, general contractors and landscaping. Join the waitlist for 50% off for life.",
  },
  about: {
    path: "/about",
    title: "About FieldCrew: built by people who have run the trucks",
    description: "Why we are building FieldCrew for field-service companies, the values we work by, and the founders behind it.",
  },
  careers: {
    path: "/careers",
    title: "Careers at FieldCrew: remote, full-time roles",
    description: "Help trade businesses run better. Open remote, full-time roles in engineering, sales, customer success and marketing.",
  },
  join: {
    path: JOIN_PATH,
    title: "Join the FieldCrew waitlist",
    description:
      "Claim a founding-member spot: 50% off FieldCrew for life. Tell us about your field-service business and we'll reach out within 48 hours.",
  },
  linkAgain: {
    path: LINK_AGAIN_PATH,
    title: "Email me my waitlist link again | FieldCrew",
    description:
      "Lost the confirmation email? Get a new link to your own FieldCrew waitlist page, where you can confirm, download your data or leave.",
  },
  privacy: {
    path: PRIVACY_PATH,
    title: "Privacy notice | FieldCrew",
    description:
      "What FieldCrew keeps about you when you join the waitlist, why, who sees it, how long it is kept, and how to see, take or delete it.",
  },
} as const satisfies Record<string, PageInfo>;
