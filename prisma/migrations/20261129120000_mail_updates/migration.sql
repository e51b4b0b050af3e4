-- Updates to a chosen part of the waitlist (issue 60, lib/updates/). An update is a row of
-- mail_updates; its emails are outbox rows of kind "update", one per entry, queued by one
-- INSERT ... SELECT when it is sent.
ALTER TABLE "outbox" ADD COLUMN "update_id" INTEGER;

-- Set when the sending thread asks to end a message's data (the mail server then has all of it): a
-- row whose instance dies after this is taken as delivered by the next look, never sent twice.
ALTER TABLE "outbox" ADD COLUMN "handed_over_at" DATETIME;

CREATE TABLE "mail_updates" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "segment" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "queued" INTEGER NOT NULL,
    "id_prefix" TEXT NOT NULL,
    "request_key" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "created_by" TEXT NOT NULL,
    "changed_at" DATETIME,
    "changed_by" TEXT
);
CREATE UNIQUE INDEX "mail_updates_id_prefix_key" ON "mail_updates"("id_prefix");
CREATE UNIQUE INDEX "mail_updates_request_key_key" ON "mail_updates"("request_key");

-- An entry gets an update once: a second queueing of the same pair is refused by the index.
CREATE UNIQUE INDEX "outbox_update_entry_key" ON "outbox"("update_id", "entry_id") WHERE "update_id" IS NOT NULL;
-- An update's progress counts its rows by status without reading them.
CREATE INDEX "outbox_update_status_idx" ON "outbox"("update_id", "status") WHERE "update_id" IS NOT NULL;

-- The prune deletes delivered rows a week old, but never an update's: they say who got it.
CREATE INDEX "outbox_prunable_idx" ON "outbox"("delivered_at") WHERE "status" = 'delivered' AND "update_id" IS NULL;

-- Rows handed over whose instance died: found by when their lease ran out.
CREATE INDEX "outbox_handed_over_idx" ON "outbox"("lease_expires_at") WHERE "status" = 'pending' AND "handed_over_at" IS NOT NULL;
