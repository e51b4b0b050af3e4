-- AlterTable
ALTER TABLE "waitlist_entries" ADD COLUMN "challenge_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "waitlist_entries_challenge_id_key" ON "waitlist_entries"("challenge_id");

