-- AlterTable
ALTER TABLE "waitlist_entries" ADD COLUMN "confirmed_at" DATETIME;

-- CreateTable
CREATE TABLE "confirmation_recipients" (
    "address_hash" TEXT NOT NULL PRIMARY KEY,
    "created_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "waitlist_removals" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "removed_at" DATETIME NOT NULL,
    "removed_by" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "waitlist_removals_removed_by_idx" ON "waitlist_removals"("removed_by");

