-- First-party, cookie-less visit counting and the funnel from a visit to an invitation
-- (lib/analytics/; docs/analytics.md). Nothing here names a person, an address or a browser.
-- And the console's search index filled behind the sign-ups instead of inside each one
-- (lib/operator/search-index.ts; docs/performance.md).

-- signup_days gains the page the sign-up was made on and its utm_medium (the funnel is shown per
-- page and per campaign), and the funnel's later steps: contacted within 48 hours, invited.
-- Still one row per key, kept by the same three triggers, so a sign-up still costs one upsert.
DROP TRIGGER "waitlist_entries_after_insert";
DROP TRIGGER "waitlist_entries_after_delete";
DROP TRIGGER "waitlist_entries_after_update_counted";
DROP TRIGGER "waitlist_entries_after_update_searched";
DROP TABLE "signup_days";

CREATE TABLE "signup_days" (
    "day" TEXT NOT NULL,
    -- The page's path, or '' when it was not recorded.
    "page" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "medium" TEXT NOT NULL,
    "campaign" TEXT NOT NULL,
    "signups" INTEGER NOT NULL,
    "confirmed" INTEGER NOT NULL,
    "contacted_48h" INTEGER NOT NULL,
    "invited" INTEGER NOT NULL,

    PRIMARY KEY ("day", "page", "source", "medium", "campaign")
);

-- The search index (waitlist_search, trigrams of names, company and email) is filled by
-- lib/operator/search-index.ts, not by the insert: at a million rows its insert cost a sign-up
-- 250-400 µs of the database's time, three quarters of the whole row (docs/performance.md). The
-- index holds exactly the entries with id <= indexed_up_to; the console's search reads the few
-- newer ones directly, so a search right after a sign-up still finds it. Everything there now is
-- indexed (the old insert trigger did it).
CREATE TABLE "waitlist_search_state" (
    "id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1),
    "indexed_up_to" INTEGER NOT NULL
);
INSERT INTO "waitlist_search_state" ("id", "indexed_up_to") SELECT 1, coalesce(max("id"), 0) FROM "waitlist_entries";

-- The key and the counted steps of one row of waitlist_entries, as every trigger below writes them
-- (SQLite has no functions to share, so the expressions repeat).
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

-- A confirmation, a first contact or an invitation (the usual updates), or a correction made in
-- the shell: the old row's counts out, the new row's in.
CREATE TRIGGER "waitlist_entries_after_update_counted" AFTER UPDATE OF "created_at", "source_page", "utm_source", "utm_medium", "utm_campaign", "confirmed_at", "first_contacted_at", "invited_at", "business_type", "company_size" ON "waitlist_entries" BEGIN
    UPDATE "signup_days" SET "signups" = "signups" - 1, "confirmed" = "confirmed" - (OLD."confirmed_at" IS NOT NULL),
        "contacted_48h" = "contacted_48h" - coalesce((julianday(OLD."first_contacted_at") - julianday(OLD."created_at")) * 24 <= 48, 0),
        "invited" = "invited" - (OLD."invited_at" IS NOT NULL)
    WHERE "day" = substr(OLD."created_at", 1, 10) AND "page" = coalesce(OLD."source_page", '') AND "source" = coalesce(OLD."utm_source", 'direct')
      AND "medium" = coalesce(OLD."utm_medium", 'none') AND "campaign" = coalesce(OLD."utm_campaign", 'none');
    INSERT INTO "signup_days" ("day", "page", "source", "medium", "campaign", "signups", "confirmed", "contacted_48h", "invited")
    VALUES (substr(NEW."created_at", 1, 10), coalesce(NEW."source_page", ''), coalesce(NEW."utm_source", 'direct'), coalesce(NEW."utm_medium", 'none'), coalesce(NEW."utm_campaign", 'none'), 1,
            NEW."confirmed_at" IS NOT NULL,
            coalesce((julianday(NEW."first_contacted_at") - julianday(NEW."created_at")) * 24 <= 48, 0),
            NEW."invited_at" IS NOT NULL)
    ON CONFLICT ("day", "page", "source", "medium", "campaign") DO UPDATE SET
        "signups" = "signups" + 1, "confirmed" = "confirmed" + excluded."confirmed",
        "contacted_48h" = "contacted_48h" + excluded."contacted_48h", "invited" = "invited" + excluded."invited";
    UPDATE "signup_segments" SET "signups" = "signups" - 1
    WHERE "business_type" = OLD."business_type" AND "company_size" = OLD."company_size";
    INSERT INTO "signup_segments" ("business_type", "company_size", "signups")
    VALUES (NEW."business_type", NEW."company_size", 1)
    ON CONFLICT ("business_type", "company_size") DO UPDATE SET "signups" = "signups" + 1;
END;

CREATE TRIGGER "waitlist_entries_after_update_searched" AFTER UPDATE OF "contact_name", "company_name", "email" ON "waitlist_entries"
WHEN OLD."id" <= (SELECT "indexed_up_to" FROM "waitlist_search_state") BEGIN
    INSERT INTO "waitlist_search" ("waitlist_search", "rowid", "contact_name", "company_name", "email")
    VALUES ('delete', OLD."id", OLD."contact_name", OLD."company_name", OLD."email");
    INSERT INTO "waitlist_search" ("rowid", "contact_name", "company_name", "email")
    VALUES (NEW."id", NEW."contact_name", NEW."company_name", NEW."email");
END;

-- The rows already there.
INSERT INTO "signup_days" ("day", "page", "source", "medium", "campaign", "signups", "confirmed", "contacted_48h", "invited")
SELECT substr("created_at", 1, 10), coalesce("source_page", ''), coalesce("utm_source", 'direct'), coalesce("utm_medium", 'none'), coalesce("utm_campaign", 'none'),
       count(*), count("confirmed_at"),
       sum(coalesce((julianday("first_contacted_at") - julianday("created_at")) * 24 <= 48, 0)),
       count("invited_at")
FROM "waitlist_entries" GROUP BY 1, 2, 3, 4, 5;

-- Visits: per UTC day, funnel step (view, open, submit) and breakdown (site, page, referrer,
-- campaign): how many events, and how many different visitors that day.
CREATE TABLE "traffic_days" (
    "day" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "dimension" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "events" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL,

    PRIMARY KEY ("day", "step", "dimension", "value")
);

-- Real visitors' page speed: how many measurements of a metric fell in each bucket, per UTC day,
-- page and device class (lib/analytics/vitals.ts: the buckets and thresholds).
CREATE TABLE "vital_days" (
    "day" TEXT NOT NULL,
    "page" TEXT NOT NULL,
    "device" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("day", "page", "device", "metric", "bucket")
);

-- Today's random salt, the same for every instance. Deleted when the day is over, after which
-- no visitor hash made with it can be made again.
CREATE TABLE "visit_salts" (
    "day" TEXT NOT NULL PRIMARY KEY,
    "salt" TEXT NOT NULL
);

-- Which (visitor hash, step, breakdown) were counted today, as a hash of those, so a visitor
-- counts once per row of traffic_days however many instances they reach. Deleted with the salt.
CREATE TABLE "visit_marks" (
    "day" TEXT NOT NULL,
    "mark" TEXT NOT NULL,

    PRIMARY KEY ("day", "mark")
) WITHOUT ROWID;

-- Events counted today per client address, as a keyed hash with today's salt: the cap on what
-- one address can add to a day. Deleted with the salt.
CREATE TABLE "visit_addresses" (
    "day" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "events" INTEGER NOT NULL,

    PRIMARY KEY ("day", "address")
) WITHOUT ROWID;
