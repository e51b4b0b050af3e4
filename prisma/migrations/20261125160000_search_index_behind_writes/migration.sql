-- The console's search index (waitlist_search, trigrams of names, company and email) is filled
-- behind the sign-ups instead of inside each one (lib/operator/search-index.ts): at a million rows
-- its insert cost a sign-up 250-400 µs of the database's time, three quarters of the whole row
-- (docs/performance.md). The index holds exactly the entries with id <= indexed_up_to; the
-- console's search reads the few newer ones directly, so a search right after a sign-up still
-- finds it.
CREATE TABLE "waitlist_search_state" (
    "id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1),
    "indexed_up_to" INTEGER NOT NULL
);
INSERT INTO "waitlist_search_state" ("id", "indexed_up_to") SELECT 1, coalesce(max("id"), 0) FROM "waitlist_entries";

-- The insert trigger without the index.
DROP TRIGGER "waitlist_entries_after_insert";
CREATE TRIGGER "waitlist_entries_after_insert" AFTER INSERT ON "waitlist_entries" BEGIN
    INSERT INTO "signup_days" ("day", "page", "source", "medium", "campaign", "signups", "confirmed", "contacted_48h", "invited")
    VALUES (substr(NEW."created_at", 1, 10), coalesce(NEW."source_page", ''), coalesce(NEW."utm_source", 'direct'), coalesce(NEW."utm_medium", 'none'), coalesce(NEW."utm_campaign", 'none'), 1,
            NEW."confirmed_at" IS NOT NULL,
            coalesce((julianday(NEW."first_contacted_at") - julianday(NEW."created_at")) * 24 <= 48, 0),
            NEW."invited_at" IS NOT NULL)
    ON CONFLICT ("day", "page", "source", "medium", "campaign") DO UPDATE SET
        "signups" = "signups" + 1, "confirmed" = "confirmed" + excluded."confirmed",
        "contacted_48h" = "contacted_48h" + excluded."contacted_48h", "invited" = "invited" + excluded."invited";
    INSERT INTO "signup_segments" ("business_type", "company_size", "signups")
    VALUES (NEW."business_type", NEW."company_size", 1)
    ON CONFLICT ("business_type", "company_size") DO UPDATE SET "signups" = "signups" + 1;
END;

-- A removal or a change takes the row out of the index only if it is in it (FTS5's 'delete' of
-- a row it never held would damage the index).
DROP TRIGGER "waitlist_entries_after_delete";
CREATE TRIGGER "waitlist_entries_after_delete" AFTER DELETE ON "waitlist_entries" BEGIN
    UPDATE "signup_days" SET "signups" = "signups" - 1, "confirmed" = "confirmed" - (OLD."confirmed_at" IS NOT NULL),
        "contacted_48h" = "contacted_48h" - coalesce((julianday(OLD."first_contacted_at") - julianday(OLD."created_at")) * 24 <= 48, 0),
        "invited" = "invited" - (OLD."invited_at" IS NOT NULL)
    WHERE "day" = substr(OLD."created_at", 1, 10) AND "page" = coalesce(OLD."source_page", '') AND "source" = coalesce(OLD."utm_source", 'direct')
      AND "medium" = coalesce(OLD."utm_medium", 'none') AND "campaign" = coalesce(OLD."utm_campaign", 'none');
    UPDATE "signup_segments" SET "signups" = "signups" - 1
    WHERE "business_type" = OLD."business_type" AND "company_size" = OLD."company_size";
    INSERT INTO "waitlist_search" ("waitlist_search", "rowid", "contact_name", "company_name", "email")
    SELECT 'delete', OLD."id", OLD."contact_name", OLD."company_name", OLD."email"
    WHERE OLD."id" <= (SELECT "indexed_up_to" FROM "waitlist_search_state");
END;

DROP TRIGGER "waitlist_entries_after_update_searched";
CREATE TRIGGER "waitlist_entries_after_update_searched" AFTER UPDATE OF "contact_name", "company_name", "email" ON "waitlist_entries"
WHEN OLD."id" <= (SELECT "indexed_up_to" FROM "waitlist_search_state") BEGIN
    INSERT INTO "waitlist_search" ("waitlist_search", "rowid", "contact_name", "company_name", "email")
    VALUES ('delete', OLD."id", OLD."contact_name", OLD."company_name", OLD."email");
    INSERT INTO "waitlist_search" ("rowid", "contact_name", "company_name", "email")
    VALUES (NEW."id", NEW."contact_name", NEW."company_name", NEW."email");
END;
