-- Each entry records the privacy notice it joined under (lib/content/privacy.ts).
-- Added in place: Prisma's own diff would rebuild the table and lose the partial
-- indexes and triggers earlier migrations made. Older entries keep NULL: they
-- joined before there was a notice.
ALTER TABLE "waitlist_entries" ADD COLUMN "notice_version" TEXT;
