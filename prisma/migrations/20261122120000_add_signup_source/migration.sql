-- AlterTable
ALTER TABLE "waitlist_entries" ADD COLUMN "source_page" TEXT;
ALTER TABLE "waitlist_entries" ADD COLUMN "utm_campaign" TEXT;
ALTER TABLE "waitlist_entries" ADD COLUMN "utm_medium" TEXT;
ALTER TABLE "waitlist_entries" ADD COLUMN "utm_source" TEXT;

