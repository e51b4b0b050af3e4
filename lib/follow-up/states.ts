/**
 * The follow-up of an entry, in words and rules only (no database, so pages, the
 * shell and tests share it): its states, which changes are allowed, the reasons
 * for closing, and the 48-hour deadline the site promises (FIGURES.responseHours).
 */
import { FIGURES } from "../content/site";

export const FOLLOW_UP_STATES = ["awaiting", "contacted", "in_conversation", "invited", "closed"] as const;
export type FollowUpState = (typeof FOLLOW_UP_STATES)[number];

/** How operators read a state. */
export const STATE_LABELS: Record<FollowUpState, string> = {
  awaiting: "Awaiting contact",
  contacted: "Contacted",
  in_conversation: "In conversation",
  invited: "Invited",
  closed: "Closed",
};

export const CLOSED_REASONS = ["not_a_fit", "no_answer", "do_not_contact"] as const;
export type ClosedReason = (typeof CLOSED_REASONS)[number];

export const CLOSED_REASON_LABELS: Record<ClosedReason, string> = {
  not_a_fit: "Not a fit",
  no_answer: "No answer",
  do_not_contact: "Asked not to be contacted",
};

/**
 * Where each state may go. Never back to awaiting (the first contact happened);
 * contacted and in conversation either way (a conversation can go quiet); invited
 * and closed are the ends (an invitation cannot be unsent; a visitor who asked not
 * to be contacted stays so). An entry can be invited or closed from any open state.
 */
export const NEXT_STATES: Record<FollowUpState, readonly FollowUpState[]> = {
  awaiting: ["contacted", "in_conversation", "invited", "closed"],
  contacted: ["in_conversation", "invited", "closed"],
  in_conversation: ["contacted", "invited", "closed"],
  invited: [],
  closed: [],
};

export function isFollowUpState(value: unknown): value is FollowUpState {
  return typeof value === "string" && (FOLLOW_UP_STATES as readonly string[]).includes(value);
}

export function isClosedReason(value: unknown): value is ClosedReason {
  return typeof value === "string" && (CLOSED_REASONS as readonly string[]).includes(value);
}

/** The states an entry may be moved to `to` from. */
export function statesBefore(to: FollowUpState): FollowUpState[] {
  return FOLLOW_UP_STATES.filter((from) => NEXT_STATES[from].includes(to));
}

/** Why a change cannot be made, in words for the operator; undefined when it can. */
export function refusalOf(from: FollowUpState, to: FollowUpState): string | undefined {
  if (NEXT_STATES[from].includes(to)) return undefined;
  if (from === to) return `It is already ${STATE_LABELS[from].toLowerCase()}.`;
  if (NEXT_STATES[from].length === 0) return `It is ${STATE_LABELS[from].toLowerCase()}, which is final.`;
  return `It is ${STATE_LABELS[from].toLowerCase()}, and cannot go back to ${STATE_LABELS[to].toLowerCase()}.`;
}

export const RESPONSE_MS = FIGURES.responseHours * 60 * 60 * 1000;
/** An entry this close to its deadline is marked "due soon". */
export const DUE_SOON_MS = 6 * 60 * 60 * 1000;

/** The moment the promise runs out: sign-up time plus 48 hours. */
export function deadlineOf(createdAt: Date): Date {
  return new Date(createdAt.getTime() + RESPONSE_MS);
}

export type Urgency = "overdue" | "due_soon" | "on_time";

export function urgencyOf(createdAt: Date, now: Date): Urgency {
  const left = deadlineOf(createdAt).getTime() - now.getTime();
  return left <= 0 ? "overdue" : left <= DUE_SOON_MS ? "due_soon" : "on_time";
}

/** "47 h 12 min left", "35 min left", "3 h 5 min overdue", "2 d 4 h overdue". */
export function timeLeftText(createdAt: Date, now: Date): string {
  const left = deadlineOf(createdAt).getTime() - now.getTime();
  const minutes = Math.floor(Math.abs(left) / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const span = days >= 2 ? `${days} d ${hours} h` : minutes >= 60 ? `${Math.floor(minutes / 60)} h ${rest} min` : `${rest} min`;
  return left > 0 ? `${span} left` : `${span} overdue`;
}
