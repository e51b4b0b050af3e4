/**
 * Where a visitor stands with the team, in their words, for their own page and their
 * data download: only what happened to them and when, never the team's notes, who
 * did it, or why an entry was closed (other than their own request not to be contacted).
 */
import { FIGURES, SITE } from "../content/site";
import { deadlineOf, isFollowUpState } from "./states";

export type Standing = { heading: string; text: string };

const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

export function visitorStanding(entry: {
  followUpState: string;
  closedReason: string | null;
  createdAt: Date;
  firstContactedAt: Date | null;
  invitedAt: Date | null;
}): Standing | null {
  const state = isFollowUpState(entry.followUpState) ? entry.followUpState : "awaiting";
  const contacted = entry.firstContactedAt ? `We contacted you on ${day.format(entry.firstContactedAt)}.` : "";
  switch (state) {
    case "awaiting":
      return {
        heading: "Our team will be in touch",
        text: `We reach out within ${FIGURES.responseHours} hours of every sign-up: by ${day.format(deadlineOf(entry.createdAt))} for yours.`,
      };
    case "contacted":
      return {
        heading: "We've been in touch",
        text: `${contacted} If you missed us, reply to our email and we'll find a time that suits you.`,
      };
    case "in_conversation":
      return { heading: "We're talking", text: `${contacted} We're working out with you how ${SITE.name} fits your business.` };
    case "invited":
      return {
        heading: "You're invited",
        text: `We sent your founding-member invitation on ${day.format(entry.invitedAt ?? entry.firstContactedAt ?? entry.createdAt)}. Look for it in your inbox, and reply to it to get started.`,
      };
    case "closed":
      if (entry.closedReason === "do_not_contact")
        return {
          heading: "We won't contact you",
          text: "You asked us not to contact you, and we won't. Your entry stays until you remove it below.",
        };
      return contacted ? { heading: "We've been in touch", text: contacted } : null;
  }
}
