-- One-click unsubscribe (issue 39, RFC 8058): when the visitor asked for no more mail. NULL: mail
-- goes as usual. Set once, by a POST to the List-Unsubscribe address of any message.
ALTER TABLE "waitlist_entries" ADD COLUMN "unsubscribed_at" DATETIME;
