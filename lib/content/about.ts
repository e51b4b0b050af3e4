/** The /about page: our story, values, founders and mission. */

export const STORY = {
  heading: "Built by people who have run the trucks",
  paragraphs: [
    "FieldCrew started at a kitchen table in 2024, after one of our founders spent another Sunday night matching paper work orders to invoices for the HVAC company his family has run for twenty years. The software he had tried was built for someone else: too many screens for the techs, too few answers for the owner.",
    "So we went on ride-alongs. We sat in dispatch offices, watched techs juggle three apps and a clipboard, and listened to owners who were great at their trade and tired of the paperwork that came with it. Everything in FieldCrew comes from those conversations.",
    "We are opening FieldCrew to a small group of founding members first, so we can onboard each company personally and keep building alongside the people who use it every day.",
  ],
} as const;

export type Value = { title: "Service First" | "Simplicity" | "Authenticity"; description: string };

export const VALUES: readonly Value[] = [
  {
    title: "Service First",
    description:
      "Your business runs on showing up for customers. We hold ourselves to the same standard: real people answer, and we follow through.",
  },
  {
    title: "Simplicity",
    description:
      "If a tech can't learn it in the truck in five minutes, we haven't finished building it. Fewer screens, fewer taps, no training binders.",
  },
  {
    title: "Authenticity",
    description:
      "Straight answers on pricing, on what's ready and what isn't. No long contracts, no surprise fees, no pretending to know your trade better than you do.",
  },
];

type Founder = { name: string; role: string; initials: string; bio: string };

export const FOUNDERS: readonly Founder[] = [
  {
    name: "Mike Alvarez",
    role: "Co-founder & CEO",
    initials: "MA",
    bio: "Grew up in his family's HVAC business and ran its service department for twelve years, from the first truck to a fleet of eleven. He knows what a missed appointment costs.",
  },
  {
    name: "Priya Raman",
    role: "Co-founder & CTO",
    initials: "PR",
    bio: "Spent a decade building scheduling and payments software for logistics companies. She leads the product and engineering team, and still does the ride-alongs.",
  },
];

export const MISSION = {
  heading: "Our mission",
  statement:
    "Give every field-service business the tools the big players have, at a price a five-truck shop can afford, so owners spend their time on the work and the people, not the paperwork.",
} as const;
