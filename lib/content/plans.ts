/** Pricing plans (spec section 9): display only, behind a Coming Soon overlay. */

export type Plan = {
  name: "Starter" | "Professional" | "Enterprise";
  price: number;
  regularPrice: number;
  technicians: number | "unlimited";
  summary: string;
  features: readonly string[];
  mostPopular?: boolean;
};

export const PLANS: readonly Plan[] = [
  {
    name: "Starter",
    price: 49,
    regularPrice: 99,
    technicians: 3,
    summary: "For owner-operators and small crews getting off paper.",
    features: ["Scheduling & dispatch", "Invoicing & card payments", "Customer hub", "Time tracking"],
  },
  {
    name: "Professional",
    price: 99,
    regularPrice: 199,
    technicians: 10,
    summary: "For growing shops that run several trucks a day.",
    features: ["Everything in Starter", "Smart reminders by text and email", "Revenue insights", "Online quote approval"],
    mostPopular: true,
  },
  {
    name: "Enterprise",
    price: 249,
    regularPrice: 499,
    technicians: "unlimited",
    summary: "For multi-crew operations with an office team.",
    features: ["Everything in Professional", "Multiple locations", "Custom roles and permissions", "Priority onboarding"],
  },
];

export function techniciansLabel(plan: Plan): string {
  return plan.technicians === "unlimited" ? "Unlimited technicians" : `Up to ${plan.technicians} technicians`;
}
