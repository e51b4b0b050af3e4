-- Launch day with deliveries on (issue 43, docs/performance.md). A claim counted every delivery of
-- the last hour and each due row's key's deliveries on every pass: a scan that grew with each
-- delivery, up to 1.6 s with every sign-up waiting behind it. Now the caps read counts per minute,
-- kept by triggers, and the due rows come from the front of two small indexes (lib/outbox/worker.ts).
-- And a sign-up's insert no longer writes its deliveries (the mark at the end).

DROP INDEX "outbox_status_next_attempt_at_idx";
DROP INDEX "outbox_kind_throttle_key_status_idx";

ALTER TABLE "outbox" ADD COLUMN "claimed_minute" INTEGER;

-- throttle_key '' holds the kind's count (MAIL_MAX_PER_HOUR), any other the key's
-- (MAIL_MAX_PER_DOMAIN_PER_HOUR). The worker deletes minutes older than two hours.
CREATE TABLE "outbox_sent_minutes" (
    "kind" TEXT NOT NULL,
    "throttle_key" TEXT NOT NULL,
    "minute" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL,

    PRIMARY KEY ("kind", "throttle_key", "minute")
);
CREATE INDEX "outbox_sent_minutes_minute_idx" ON "outbox_sent_minutes"("minute");

-- The prune deletes delivered rows oldest first; the overview counts pending and failed ones.
CREATE INDEX "outbox_status_delivered_at_idx" ON "outbox"("status", "delivered_at");

-- Due rows, first attempts apart from retries, so that a failing receiver's retries can be held
-- to half of the attempts under way without first attempts queuing behind them. Only pending rows:
-- the history does not make them any larger.
CREATE INDEX "outbox_first_attempts_idx" ON "outbox"("kind", "next_attempt_at") WHERE "status" = 'pending' AND "attempts" = 0;
CREATE INDEX "outbox_retries_idx" ON "outbox"("kind", "next_attempt_at") WHERE "status" = 'pending' AND "attempts" > 0;

-- What the old count saw at the moment of migrating: deliveries of the last hour, each in its
-- minute, and attempts under way, in this minute (claimed_minute set, so their end gives it back).
UPDATE "outbox" SET "claimed_minute" = CAST(unixepoch('now') / 60 AS INTEGER)
WHERE "status" = 'pending' AND unixepoch("lease_expires_at") > unixepoch('now');

INSERT INTO "outbox_sent_minutes" ("kind", "throttle_key", "minute", "sent")
SELECT "kind", "key", "minute", count(*) FROM (
    SELECT "kind", '' AS "key", CAST(unixepoch("delivered_at") / 60 AS INTEGER) AS "minute" FROM "outbox"
    WHERE "status" = 'delivered' AND unixepoch("delivered_at") > unixepoch('now') - 3660
    UNION ALL
    SELECT "kind", "throttle_key", CAST(unixepoch("delivered_at") / 60 AS INTEGER) FROM "outbox"
    WHERE "status" = 'delivered' AND "throttle_key" IS NOT NULL AND unixepoch("delivered_at") > unixepoch('now') - 3660
    UNION ALL
    SELECT "kind", '', "claimed_minute" FROM "outbox" WHERE "claimed_minute" IS NOT NULL
    UNION ALL
    SELECT "kind", "throttle_key", "claimed_minute" FROM "outbox" WHERE "claimed_minute" IS NOT NULL AND "throttle_key" IS NOT NULL
)
GROUP BY "kind", "key", "minute";

-- A claim (attempts goes up; the claim sets claimed_minute) counts in its minute, for the kind and
-- for its key.
CREATE TRIGGER "outbox_after_claim_counts" AFTER UPDATE OF "attempts" ON "outbox"
WHEN NEW."attempts" > OLD."attempts" AND NEW."claimed_minute" IS NOT NULL BEGIN
    INSERT INTO "outbox_sent_minutes" ("kind", "throttle_key", "minute", "sent")
    VALUES (NEW."kind", '', NEW."claimed_minute", 1)
    ON CONFLICT DO UPDATE SET "sent" = "sent" + 1;
    INSERT INTO "outbox_sent_minutes" ("kind", "throttle_key", "minute", "sent")
    SELECT NEW."kind", NEW."throttle_key", NEW."claimed_minute", 1 WHERE NEW."throttle_key" IS NOT NULL
    ON CONFLICT DO UPDATE SET "sent" = "sent" + 1;
END;

-- An attempt that ends without a delivery (refused, failed, cut off, handed back) gives its minute
-- back: the caps count what a mail server took or may be taking now. A delivered one keeps its
-- count, and so does one whose instance died (it may have been sent).
CREATE TRIGGER "outbox_after_release_counts" AFTER UPDATE OF "lease_owner" ON "outbox"
WHEN OLD."lease_owner" IS NOT NULL AND NEW."lease_owner" IS NULL AND NEW."status" <> 'delivered' AND OLD."claimed_minute" IS NOT NULL BEGIN
    UPDATE "outbox_sent_minutes" SET "sent" = "sent" - 1
    WHERE "kind" = OLD."kind" AND "throttle_key" IN ('', OLD."throttle_key") AND "minute" = OLD."claimed_minute";
END;

-- A new sign-up's deliveries are no longer written by its own insert, in a transaction of three
-- statements that stayed open across round trips to a busy main thread (issue 43): every entry
-- past owed_up_to is owed them, and the delivery worker's pass writes them (lib/waitlist/
-- signup-deliveries.ts). Moving the mark is what writes the rows the pass brings in `owing`, in the
-- same statement, and only for entries it passes that are still there and owed nothing yet.
CREATE TABLE "signup_deliveries_state" (
    "id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1),
    "owed_up_to" INTEGER NOT NULL,
    "owing" TEXT
);
-- Every entry so far had its deliveries written with it.
INSERT INTO "signup_deliveries_state" ("id", "owed_up_to") SELECT 1, coalesce(max("id"), 0) FROM "waitlist_entries";

-- owing: {"at": the pass's time, "rows": [[outbox id, kind, entry id, recipient key, throttle key]]}.
-- A confirmation email only for an address never mailed before (confirmation_recipients), which
-- is then recorded; the NOT EXISTS on outbox keeps an entry an older instance already owed from
-- being owed twice while both versions run.
CREATE TRIGGER "signup_deliveries_state_after_update_owes" AFTER UPDATE OF "owed_up_to" ON "signup_deliveries_state"
WHEN NEW."owed_up_to" > OLD."owed_up_to" BEGIN
    INSERT INTO "outbox" ("id", "kind", "entry_id", "status", "attempts", "next_attempt_at", "created_at", "throttle_key")
    SELECT owed.value ->> 0, owed.value ->> 1, entry."id", 'pending', 0, NEW."owing" ->> 'at', NEW."owing" ->> 'at', owed.value ->> 4
    FROM json_each(NEW."owing", '$.rows') AS owed
    JOIN "waitlist_entries" AS entry ON entry."id" = owed.value ->> 2
    WHERE entry."id" > OLD."owed_up_to" AND entry."id" <= NEW."owed_up_to"
      AND NOT EXISTS (SELECT 1 FROM "outbox" WHERE "entry_id" = entry."id" AND "kind" = owed.value ->> 1 AND "event" = 'created')
      AND (owed.value ->> 1 != 'email' OR NOT EXISTS (SELECT 1 FROM "confirmation_recipients" WHERE "address_hash" = owed.value ->> 3));
    INSERT INTO "confirmation_recipients" ("address_hash", "created_at")
    SELECT owed.value ->> 3, NEW."owing" ->> 'at'
    FROM json_each(NEW."owing", '$.rows') AS owed
    JOIN "waitlist_entries" AS entry ON entry."id" = owed.value ->> 2
    WHERE owed.value ->> 1 = 'email' AND entry."id" > OLD."owed_up_to" AND entry."id" <= NEW."owed_up_to"
    ON CONFLICT DO NOTHING;
END;

-- The overdue look (lib/follow-up/overdue.ts) with a webhook configured: one INSERT into this view
-- marks the entries it read as overdue and owes their webhooks, in one statement. The transaction
-- of two statements it replaces held the database across round trips to a busy main thread (46 ms
-- at a time at a million entries under load). owing: [[outbox id, entry id, payload]]. Only an
-- entry still awaiting and unmarked is marked, and only an entry this statement marked is owed.
-- The unary + keeps SQLite from answering those two conditions with an index of every entry
-- awaiting contact (a scan of 60,000 at a million entries, 350-470 ms): each entry by its id.
CREATE VIEW "overdue_raises" AS SELECT NULL AS "at", NULL AS "owing";
CREATE TRIGGER "overdue_raises_instead_of_insert" INSTEAD OF INSERT ON "overdue_raises" BEGIN
    INSERT INTO "outbox" ("id", "kind", "entry_id", "status", "attempts", "next_attempt_at", "created_at", "event", "payload")
    SELECT owed.value ->> 0, 'webhook', entry."id", 'pending', 0, NEW."at", NEW."at", 'overdue', owed.value ->> 2
    FROM json_each(NEW."owing") AS owed JOIN "waitlist_entries" AS entry ON entry."id" = owed.value ->> 1
    WHERE +entry."follow_up_state" = 'awaiting' AND +entry."overdue_at" IS NULL;
    UPDATE "waitlist_entries" SET "overdue_at" = NEW."at"
    WHERE "id" IN (SELECT value ->> 1 FROM json_each(NEW."owing")) AND +"follow_up_state" = 'awaiting' AND +"overdue_at" IS NULL;
END;
