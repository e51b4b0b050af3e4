-- The team's follow-up of each entry (lib/follow-up/; docs/operations.md, "The follow-up queue").
-- Columns are added with ALTER TABLE, not by redefining the tables as `prisma migrate diff`
-- would: waitlist_entries keeps its partial unique index, its triggers and its search index.

ALTER TABLE "waitlist_entries" ADD COLUMN "follow_up_state" TEXT NOT NULL DEFAULT 'awaiting';
ALTER TABLE "waitlist_entries" ADD COLUMN "closed_reason" TEXT;
ALTER TABLE "waitlist_entries" ADD COLUMN "state_changed_at" DATETIME;
ALTER TABLE "waitlist_entries" ADD COLUMN "state_changed_by" TEXT;
ALTER TABLE "waitlist_entries" ADD COLUMN "first_contacted_at" DATETIME;
ALTER TABLE "waitlist_entries" ADD COLUMN "invited_at" DATETIME;
ALTER TABLE "waitlist_entries" ADD COLUMN "assigned_to" TEXT;
ALTER TABLE "waitlist_entries" ADD COLUMN "overdue_at" DATETIME;

-- Entries whose 48 hours had already run out before the queue existed are not announced as
-- overdue now: the event says that a deadline passes, and theirs passed unwatched.
UPDATE "waitlist_entries" SET "overdue_at" = "created_at" WHERE julianday("created_at") < julianday('now', '-2 days');

CREATE INDEX "waitlist_entries_follow_up_state_created_at_idx" ON "waitlist_entries"("follow_up_state", "created_at");
CREATE INDEX "waitlist_entries_assigned_to_follow_up_state_created_at_idx" ON "waitlist_entries"("assigned_to", "follow_up_state", "created_at");

ALTER TABLE "outbox" ADD COLUMN "event" TEXT NOT NULL DEFAULT 'created';
ALTER TABLE "outbox" ADD COLUMN "payload" TEXT;

ALTER TABLE "operators" ADD COLUMN "time_zone" TEXT;

CREATE TABLE "follow_up_events" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "entry_id" INTEGER NOT NULL,
    "at" DATETIME NOT NULL,
    "actor" TEXT NOT NULL,
    "operator_id" TEXT,
    "kind" TEXT NOT NULL,
    "from_state" TEXT,
    "to_state" TEXT,
    "closed_reason" TEXT,
    "note" TEXT,
    "assigned_to" TEXT,
    CONSTRAINT "follow_up_events_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "waitlist_entries" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "follow_up_events_entry_id_at_idx" ON "follow_up_events"("entry_id", "at");

CREATE TABLE "email_templates" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL,
    "updated_by" TEXT NOT NULL
);

-- What the overdue sweep (lib/follow-up/overdue.ts) looks for each minute: only entries still
-- awaiting contact and not yet announced, so the sweep reads a few rows however long the list.
CREATE INDEX "waitlist_entries_overdue_watch_idx" ON "waitlist_entries"("created_at") WHERE "follow_up_state" = 'awaiting' AND "overdue_at" IS NULL;

-- First contacts per sign-up day and whole hours taken (lib/follow-up/metrics.ts): the overview's
-- median and share within 48 hours read a few hundred rows, however long the list. Kept by
-- triggers, like signup_days, whichever way a row changes.
CREATE TABLE "follow_up_contacts" (
    "day" TEXT NOT NULL,
    "hours" INTEGER NOT NULL,
    "contacts" INTEGER NOT NULL,
    PRIMARY KEY ("day", "hours")
);

CREATE TRIGGER "waitlist_entries_after_insert_contacted" AFTER INSERT ON "waitlist_entries" WHEN NEW."first_contacted_at" IS NOT NULL BEGIN
    INSERT INTO "follow_up_contacts" ("day", "hours", "contacts")
    VALUES (substr(NEW."created_at", 1, 10), CAST((julianday(NEW."first_contacted_at") - julianday(NEW."created_at")) * 24 + 0.000001 AS INTEGER), 1)
    ON CONFLICT ("day", "hours") DO UPDATE SET "contacts" = "contacts" + 1;
END;

CREATE TRIGGER "waitlist_entries_after_delete_contacted" AFTER DELETE ON "waitlist_entries" WHEN OLD."first_contacted_at" IS NOT NULL BEGIN
    UPDATE "follow_up_contacts" SET "contacts" = "contacts" - 1
    WHERE "day" = substr(OLD."created_at", 1, 10) AND "hours" = CAST((julianday(OLD."first_contacted_at") - julianday(OLD."created_at")) * 24 + 0.000001 AS INTEGER);
END;

CREATE TRIGGER "waitlist_entries_after_update_contacted" AFTER UPDATE OF "created_at", "first_contacted_at" ON "waitlist_entries"
WHEN OLD."first_contacted_at" IS NOT NULL OR NEW."first_contacted_at" IS NOT NULL BEGIN
    UPDATE "follow_up_contacts" SET "contacts" = "contacts" - 1
    WHERE OLD."first_contacted_at" IS NOT NULL AND "day" = substr(OLD."created_at", 1, 10)
      AND "hours" = CAST((julianday(OLD."first_contacted_at") - julianday(OLD."created_at")) * 24 + 0.000001 AS INTEGER);
    INSERT INTO "follow_up_contacts" ("day", "hours", "contacts")
    SELECT substr(NEW."created_at", 1, 10), CAST((julianday(NEW."first_contacted_at") - julianday(NEW."created_at")) * 24 + 0.000001 AS INTEGER), 1
    WHERE NEW."first_contacted_at" IS NOT NULL
    ON CONFLICT ("day", "hours") DO UPDATE SET "contacts" = "contacts" + 1;
END;

-- The queue's filters by trade and by size (lib/follow-up/queue.ts), over the entries awaiting
-- contact only: a filtered page and its counts walk these in deadline order instead of reading
-- every waiting row (bench/operator.ts).
CREATE INDEX "waitlist_entries_queue_trade_idx" ON "waitlist_entries"("business_type", "created_at", "company_size") WHERE "follow_up_state" = 'awaiting';
CREATE INDEX "waitlist_entries_queue_size_idx" ON "waitlist_entries"("company_size", "created_at") WHERE "follow_up_state" = 'awaiting';
