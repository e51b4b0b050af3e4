-- Bounces tied to the message they are about (issue 61). A report of undelivered mail counts only
-- when its tag names an email the site delivered, and only once: bounced_at marks it.
ALTER TABLE "outbox" ADD COLUMN "bounced_at" DATETIME;

-- Emails refused for a reason other than a mailbox that is gone, per minute and code, so that a
-- burst of one refusal (a relay that refuses everyone, a DMARC failure) shows as a sending problem.
CREATE TABLE "mail_refusal_minutes" (
    "minute" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "refused" INTEGER NOT NULL,

    PRIMARY KEY ("minute", "code")
);
