-- One mailbox, one entry (docs/operations.md, "One mailbox, one entry"). The key of each row
-- becomes its address's canonical form; rows that now share a key are all kept, and each but
-- the oldest is marked as a duplicate of it. Nothing is deleted.

ALTER TABLE "waitlist_entries" ADD COLUMN "duplicate_of" INTEGER;

DROP INDEX "waitlist_entries_email_normalized_key";

-- The rule of normalizeEmail() in lib/waitlist/schema.ts, applied to the old key (the address
-- trimmed and lower-cased already): a "+tag" cut for every domain (unless the local part starts
-- with "+"), and for gmail.com and googlemail.com the dots dropped and the domain gmail.com.
WITH "split" AS (
  SELECT "id", "email_normalized" AS "key", instr("email_normalized", '@') AS "at" FROM "waitlist_entries"
), "parts" AS (
  SELECT "id", "key", "at", substr("key", 1, "at" - 1) AS "local", substr("key", "at" + 1) AS "domain" FROM "split"
), "untagged" AS (
  SELECT "id", "key", "at", "domain",
    CASE WHEN instr("local", '+') > 1 THEN substr("local", 1, instr("local", '+') - 1) ELSE "local" END AS "local"
  FROM "parts"
), "canonical" AS (
  SELECT "id", CASE
    WHEN "at" = 0 THEN "key"
    WHEN "domain" IN ('gmail.com', 'googlemail.com') THEN replace("local", '.', '') || '@gmail.com'
    ELSE "local" || '@' || "domain"
  END AS "key"
  FROM "untagged"
)
UPDATE "waitlist_entries" SET "email_normalized" = "canonical"."key"
FROM "canonical" WHERE "canonical"."id" = "waitlist_entries"."id";

-- Each row whose key an older row has (by created_at, then id) points at the oldest.
CREATE INDEX "waitlist_entries_canonical_tmp" ON "waitlist_entries"("email_normalized", "created_at", "id");
UPDATE "waitlist_entries" SET "duplicate_of" = (
  SELECT "first"."id" FROM "waitlist_entries" AS "first"
  WHERE "first"."email_normalized" = "waitlist_entries"."email_normalized"
  ORDER BY "first"."created_at", "first"."id" LIMIT 1
);
UPDATE "waitlist_entries" SET "duplicate_of" = NULL WHERE "duplicate_of" = "id";
DROP INDEX "waitlist_entries_canonical_tmp";

-- Unique among the entries that are not duplicates: what the insert's ON CONFLICT names.
CREATE UNIQUE INDEX "waitlist_entries_email_normalized_key" ON "waitlist_entries"("email_normalized") WHERE "duplicate_of" IS NULL;
-- The duplicates of an entry, for the operator tool and for a removal; only rows that have one.
CREATE INDEX "waitlist_entries_duplicate_of_idx" ON "waitlist_entries"("duplicate_of") WHERE "duplicate_of" IS NOT NULL;
