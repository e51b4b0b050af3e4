/**
 * Open positions on /careers (spec section 2). Applications open later: every apply button reads
 * Coming Soon. The cards and the page's JobPosting markup (lib/content/structured-data.ts) are
 * both made from these rows, so they cannot disagree.
 */

/** A yearly salary range in US dollars; `plus`: what comes on top ("commission"). */
export type Salary = { min: number; max: number; plus?: string };

export type Job = {
  id: string;
  title: string;
  department: string;
  location: "Remote";
  type: "Full-time";
  salary: Salary;
  description: string;
  requirements: readonly string[];
  benefits: readonly string[];
};

/** When these positions were posted, and until when they stand (YYYY-MM-DD): the postings' datePosted and validThrough. */
export const JOBS_POSTED = { on: "2026-11-22", until: "2027-03-31" } as const;

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

/** The salary as the card shows it: "$140,000 - $175,000", "$60,000 - $80,000 + commission". */
export function salaryText({ min, max, plus }: Salary): string {
  return `${dollars.format(min)} - ${dollars.format(max)}${plus ? ` + ${plus}` : ""}`;
}

const SHARED_BENEFITS = [
  "Health, dental and vision insurance",
  "Equity in FieldCrew",
  "Work from anywhere in the US",
  "Flexible time off",
] as const;

export const JOBS: readonly Job[] = [
  {
    id: "senior-full-stack-developer",
    title: "Senior Full Stack Developer",
    department: "Engineering",
    location: "Remote",
    type: "Full-time",
    salary: { min: 140_000, max: 175_000 },
    description:
      "Build the scheduling, dispatch and payments features that crews rely on every morning, from the database to the app in a tech's hand.",
    requirements: [
      "5+ years building web applications in TypeScript",
      "Experience with React and server-side APIs",
      "Comfort owning features end to end, including tests",
      "Curiosity about how field-service businesses work",
    ],
    benefits: [...SHARED_BENEFITS, "$1,500 yearly equipment budget"],
  },
  {
    id: "sales-representative",
    title: "Sales Representative",
    department: "Sales",
    location: "Remote",
    type: "Full-time",
    salary: { min: 60_000, max: 80_000, plus: "commission" },
    description:
      "Talk with owners of HVAC, plumbing, electrical and landscaping companies, understand how they run their day, and show them how FieldCrew fits.",
    requirements: [
      "2+ years in B2B sales, ideally to small businesses",
      "A habit of listening before pitching",
      "Clear, friendly writing and phone manner",
      "Experience in the trades is a strong plus",
    ],
    benefits: [...SHARED_BENEFITS, "Uncapped commission"],
  },
  {
    id: "customer-success-manager",
    title: "Customer Success Manager",
    department: "Customer Success",
    location: "Remote",
    type: "Full-time",
    salary: { min: 70_000, max: 90_000 },
    description:
      "Onboard our founding members personally, set up their crews and price books, and make sure every company gets value from week one.",
    requirements: [
      "3+ years in customer success, onboarding or support",
      "Patience explaining software to busy people",
      "Organised follow-through across many accounts",
      "Experience with field-service software is a plus",
    ],
    benefits: [...SHARED_BENEFITS, "Home office stipend"],
  },
  {
    id: "marketing-specialist",
    title: "Marketing Specialist",
    department: "Marketing",
    location: "Remote",
    type: "Full-time",
    salary: { min: 65_000, max: 85_000 },
    description:
      "Tell the story of FieldCrew to trade business owners through content, email and events, in plain language they'd use themselves.",
    requirements: [
      "3+ years in B2B or small-business marketing",
      "Strong writing and editing",
      "Experience running email and content programs",
      "Comfort with analytics and testing ideas quickly",
    ],
    benefits: [...SHARED_BENEFITS, "Conference and learning budget"],
  },
];

export const HOW_TO_APPLY: readonly { title: string; description: string }[] = [
  {
    title: "Find your role",
    description: "Read through the open positions above and pick the one that fits what you do best.",
  },
  {
    title: "Send your application",
    description: "When applications open, send your resume and a few lines on why field-service businesses matter to you.",
  },
  {
    title: "Meet the team",
    description: "A short call with a founder, a practical exercise from real work, and a decision within two weeks.",
  },
];
