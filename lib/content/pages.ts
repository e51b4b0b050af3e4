/** Each page's path, title and description: the source for <title>, Open Graph and the sitemap. */

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
    description:
      "Why we are building FieldCrew for field-service companies, the values we work by, and the founders behind it.",
  },
  careers: {
    path: "/careers",
    title: "Careers at FieldCrew: remote, full-time roles",
    description:
      "Help trade businesses run better. Open remote, full-time roles in engineering, sales, customer success and marketing.",
  },
} as const satisfies Record<string, PageInfo>;
