-- AlterTable
ALTER TABLE "waitlist_entries" ADD COLUMN "public_id" TEXT;

-- CreateTable
CREATE TABLE "outbox" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "entry_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" DATETIME NOT NULL,
    "lease_owner" TEXT,
    "lease_expires_at" DATETIME,
    "last_error" TEXT,
    "created_at" DATETIME NOT NULL,
    "delivered_at" DATETIME,
    CONSTRAINT "outbox_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "waitlist_entries" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "rate_limit_windows" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "attempts" INTEGER NOT NULL,
    "expires_at" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "outbox_status_next_attempt_at_idx" ON "outbox"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "outbox_entry_id_idx" ON "outbox"("entry_id");

-- CreateIndex
CREATE INDEX "rate_limit_windows_expires_at_idx" ON "rate_limit_windows"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "waitlist_entries_public_id_key" ON "waitlist_entries"("public_id");

