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
