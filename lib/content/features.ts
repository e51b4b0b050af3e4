/** The six capabilities the tool promises (spec section 1), shown in #features. */

export type FeatureIcon = "calendar" | "receipt" | "bell" | "users" | "chart" | "clock";

type Feature = { title: string; icon: FeatureIcon; description: string; points: readonly string[] };

export const FEATURES: readonly Feature[] = [
  {
    title: "Scheduling & Dispatch",
    icon: "calendar",
    description:
      "Drag a job onto a tech's day and they have the address, the gate code and the job history on their phone before they leave the shop.",
    points: ["Drag-and-drop calendar for the whole crew", "Route-aware dispatch", "Same-day changes pushed to techs"],
  },
  {
    title: "Invoicing & Payments",
    icon: "receipt",
    description: "Turn a finished job into an invoice on site and take a card, ACH or check before the truck pulls out of the driveway.",
    points: ["Invoices from job details in one tap", "Card and ACH payments", "Automatic payment follow-ups"],
  },
  {
    title: "Smart Reminders",
    icon: "bell",
    description:
      "Appointment confirmations, on-my-way texts and seasonal tune-up reminders go out on their own, so fewer no-shows and more repeat work.",
    points: ["Text and email confirmations", "On-my-way alerts with arrival time", "Maintenance and renewal reminders"],
  },
  {
    title: "Customer Hub",
    icon: "users",
    description: "Every customer's equipment, photos, past jobs, quotes and invoices in one place, for whoever picks up the phone.",
    points: ["Full service history per address", "Photos and notes from the field", "Quotes customers can approve online"],
  },
  {
    title: "Revenue Insights",
    icon: "chart",
    description: "See which jobs, techs and services actually make you money, without exporting anything to a spreadsheet.",
    points: ["Revenue by service and by tech", "Unpaid invoices at a glance", "Job profitability after labor"],
  },
  {
    title: "Time Tracking",
    icon: "clock",
    description: "Techs clock in and out from the job, and payroll-ready timesheets are waiting for you at the end of the week.",
    points: ["Clock in and out by job", "Drive time and job time apart", "Timesheets ready for payroll"],
  },
];
