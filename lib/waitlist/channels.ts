/**
 * The waitlist's delivery channels, built from plain settings: the webhook and the email (the
 * confirmation, a link asked for again, the team's invitation, and of kind "update" the team's
 * updates to the list). ./deliveries.ts runs them in the
 * outbox's sending thread (lib/outbox/channel-thread.ts), which loads this module by its path.
 */
import "server-only";
import type { Channel, DeliveryKind } from "../outbox/worker";
import { renderInvitation, type InvitationTemplate } from "../follow-up/invitation";
import { renderTemplate, type TeamTemplate } from "../mail/template";
import { SITE } from "../content/site";
import {
  confirmationEmail,
  confirmationEmailChannel,
  LINK_AGAIN_EVENT,
  linkAgainEmail,
  type ComposeEmail,
  type MailOptions,
} from "./confirmation-email";
import { webhookChannel, type WebhookOptions } from "./webhook";

export type ChannelSettings = { webhook?: Pick<WebhookOptions, "url" | "secret">; email?: MailOptions };

/** The heading of an update's HTML part. */
export const UPDATE_HEADING = `News from the ${SITE.name} team`;

/**
 * The email a delivery is: an update and an invitation carry their template, a link asked for again
 * is only the link; the rest are confirmations.
 */
const composeEmail: ComposeEmail = (delivery, entry, link) => {
  if (delivery.kind === "update")
    return renderTemplate(JSON.parse(delivery.payload ?? "null") as TeamTemplate, entry, link, UPDATE_HEADING);
  if (delivery.event === "invitation") return renderInvitation(JSON.parse(delivery.payload ?? "null") as InvitationTemplate, entry, link);
  if (delivery.event === LINK_AGAIN_EVENT) return linkAgainEmail(link);
  return confirmationEmail(entry, link);
};

/** The channels for these settings; the sending thread loads this module by path and calls it (lib/outbox/sending-thread.mjs). @public */
export function channelsFor(settings: ChannelSettings): Partial<Record<DeliveryKind, Channel>> {
  const channels: Partial<Record<DeliveryKind, Channel>> = {};
  if (settings.webhook) channels.webhook = webhookChannel(settings.webhook);
  if (settings.email) channels.email = channels.update = confirmationEmailChannel(settings.email, composeEmail);
  return channels;
}
