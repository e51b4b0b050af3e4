-- Bounces (issue 39): an address the mail system refused for good (an SMTP 5xx when sending, or a
-- delivery status notification that came back later) gets no message of any kind after it, until
-- an operator lifts it. The reason is the mail system's status (e.g. "SMTP 550", "DSN 5.1.1").
ALTER TABLE "waitlist_entries" ADD COLUMN "mail_suppressed_at" DATETIME;
ALTER TABLE "waitlist_entries" ADD COLUMN "mail_suppressed_reason" TEXT;
-- The few suppressed entries, for the list's filter and the overview's count without a scan.
CREATE INDEX "waitlist_entries_mail_suppressed_at_idx" ON "waitlist_entries" ("mail_suppressed_at") WHERE "mail_suppressed_at" IS NOT NULL;
