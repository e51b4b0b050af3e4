-- AlterTable
ALTER TABLE "outbox" ADD COLUMN "throttle_key" TEXT;
-- CreateIndex
CREATE INDEX "outbox_kind_throttle_key_status_idx" ON "outbox"("kind", "throttle_key", "status");
