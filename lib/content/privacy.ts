/**
 * The privacy notice (/privacy). Its version is stored with every new entry
 * (waitlist_entries.notice_version), so a change of substance gets a new version:
 * the date it took effect. How long entries are kept comes from the environment
 * (WAITLIST_RETENTION_DAYS), so the page says what this site actually does.
 */
export const PRIVACY_NOTICE_VERSION = "2026-11-25";

type NoticeSection = { heading: string; paragraphs: readonly string[] };

/** How long entries are kept, in the notice's words: `retentionDays` unset means until removed. */
function retentionSentence(retentionDays: number | undefined): string {
  return retentionDays === undefined
    ? "We keep your entry until you remove it from your own page, you ask us to, or the waitlist closes, whichever comes first."
    : `We keep your entry for ${retentionDays} days after you join; after that it is deleted automatically, together with the record of the emails and notifications sent about it. You can remove it sooner from your own page.`;
}

/** How long the visit counts are kept: the day's code for the day, the daily totals like entries. */
function visitFiguresSentence(retentionDays: number | undefined): string {
  return retentionDays === undefined
    ? "The code that tells visitors apart is deleted when its day is over; the daily visit totals, which name nobody, are kept."
    : `The code that tells visitors apart is deleted when its day is over; the daily visit totals, which name nobody, are kept for ${retentionDays} days.`;
}

export function privacyNotice(retentionDays: number | undefined, contactEmail: string): NoticeSection[] {
  return [
    {
      heading: "What we collect",
      paragraphs: [
        "When you join the waitlist: your company name, your name, your email address, your phone number, your business type and company size, and any notes you write.",
        "With it: the page of this site you joined from and the campaign in the link that brought you (utm_source, utm_medium, utm_campaign), when you joined and under which version of this notice, and when you confirmed your address.",
        "As our team follows up: where your entry stands (awaiting contact, contacted, in conversation, invited or closed), notes the team writes, and which emails and notifications were sent about you and when.",
        "To stop abuse, the site counts sign-up attempts per network address for a few minutes. Those counts are not stored with your entry.",
      ],
    },
    {
      heading: "Counting visits",
      paragraphs: [
        "To learn which pages and campaigns bring the companies we talk to, the site counts visits without cookies and without storing anything on your device. Each page sends us its address, the site that linked to it, the campaign in the link you came with, whether you opened the waitlist form and sent it, and how fast the page loaded and responded for you.",
        "We tell visitors apart for one day only, by a code made from your network address (its last part cut off), your browser's family (such as Chrome or Safari) and a random value that is replaced every day and then deleted. We never store your network address, your browser's details, the pages you visited one by one, or that code after the day: what is kept is how many visits each page and campaign had each day.",
        "If your browser sends Do Not Track or Global Privacy Control, we count the page view but not you: no code is made for you at all. Without JavaScript, a page view is counted by a tiny image, the same way. Automated visitors (search engines, bots) are not counted.",
      ],
    },
    {
      heading: "Why",
      paragraphs: [
        "To contact you about early access and your founding-member offer, within the 48 hours we promise, and to learn which trades and company sizes to build for first. Nothing else: no advertising, no selling or sharing your details for marketing.",
      ],
    },
    {
      heading: "Who sees it",
      paragraphs: [
        "Our launch team, signed in to our console with a passkey. Every look at the list and every change is recorded.",
        "The services that carry our messages: the mail server that delivers your confirmation email, and, where we use one, the system our team tracks conversations in, which receives your entry when you join.",
      ],
    },
    { heading: "How long we keep it", paragraphs: [retentionSentence(retentionDays), visitFiguresSentence(retentionDays)] },
    {
      heading: "See it, take it, delete it",
      paragraphs: [
        "The confirmation email has a link to your own page. There you can see your entry, confirm your address, download everything we hold about you as a JSON file, or remove yourself from the waitlist at once.",
        'Lost the email? Ask for your link again from the "Email me my link again" page: we send it to the address on the list, and only there.',
      ],
    },
    {
      heading: "Contact",
      paragraphs: [`Questions, or a request we should handle by hand: write to ${contactEmail}.`],
    },
  ];
}
