/** Quotes from owners in the early-access program, shown in #testimonials. */

type Testimonial = { quote: string; name: string; role: string; company: string; trade: string };

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote:
      "We used to run dispatch off a whiteboard and a group text. In the pilot my office manager got her Friday afternoons back, and we stopped double-booking the same tech.",
    name: "Marcus Reed",
    role: "Owner",
    company: "Reed Mechanical",
    trade: "HVAC, 9 technicians",
  },
  {
    quote:
      "My guys invoice from the driveway now. Money that used to sit for thirty days shows up the same week, and I didn't have to change how we work.",
    name: "Tanya Brooks",
    role: "Owner",
    company: "Brooks Plumbing & Drain",
    trade: "Plumbing, 5 technicians",
  },
  {
    quote: "The seasonal reminders alone filled our spring calendar. Customers book cleanups before I even think to call them.",
    name: "Luis Ortega",
    role: "Founder",
    company: "Greenline Landscapes",
    trade: "Landscaping, 14 crew members",
  },
];
