
-- CreateTable
CREATE TABLE "operators" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "operator_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "expires_at" DATETIME NOT NULL,
    "token" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "operator_id" TEXT NOT NULL,
    CONSTRAINT "operator_sessions_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "operator_accounts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "access_token" TEXT,
    "refresh_token" TEXT,
    "id_token" TEXT,
    "access_token_expires_at" DATETIME,
    "refresh_token_expires_at" DATETIME,
    "scope" TEXT,
    "password" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "operator_accounts_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "operator_verifications" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "operator_passkeys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT,
    "public_key" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "counter" INTEGER NOT NULL,
    "device_type" TEXT NOT NULL,
    "backed_up" BOOLEAN NOT NULL,
    "transports" TEXT,
    "created_at" DATETIME,
    "aaguid" TEXT,
    CONSTRAINT "operator_passkeys_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "operator_invitations" (
    "token_hash" TEXT NOT NULL PRIMARY KEY,
    "operator_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    CONSTRAINT "operator_invitations_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "operator_actions" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL,
    "actor" TEXT NOT NULL,
    "operator_id" TEXT,
    "action" TEXT NOT NULL,
    "entry_id" INTEGER,
    "detail" TEXT
);

-- CreateTable
CREATE TABLE "signup_days" (
    "day" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "campaign" TEXT NOT NULL,
    "signups" INTEGER NOT NULL,
    "confirmed" INTEGER NOT NULL,

    PRIMARY KEY ("day", "source", "campaign")
);

-- CreateTable
CREATE TABLE "signup_segments" (
    "business_type" TEXT NOT NULL,
    "company_size" TEXT NOT NULL,
    "signups" INTEGER NOT NULL,

    PRIMARY KEY ("business_type", "company_size")
);

-- CreateIndex
CREATE UNIQUE INDEX "operators_email_key" ON "operators"("email");

-- CreateIndex
CREATE UNIQUE INDEX "operator_sessions_token_key" ON "operator_sessions"("token");

-- CreateIndex
CREATE INDEX "operator_sessions_operator_id_idx" ON "operator_sessions"("operator_id");

-- CreateIndex
CREATE INDEX "operator_accounts_operator_id_idx" ON "operator_accounts"("operator_id");

-- CreateIndex
CREATE INDEX "operator_verifications_identifier_idx" ON "operator_verifications"("identifier");

-- CreateIndex
CREATE UNIQUE INDEX "operator_passkeys_credential_id_key" ON "operator_passkeys"("credential_id");

-- CreateIndex
CREATE INDEX "operator_passkeys_operator_id_idx" ON "operator_passkeys"("operator_id");

-- CreateIndex
CREATE INDEX "operator_invitations_operator_id_idx" ON "operator_invitations"("operator_id");

-- CreateIndex
CREATE INDEX "operator_actions_at_idx" ON "operator_actions"("at");

-- CreateIndex
CREATE INDEX "operator_actions_entry_id_idx" ON "operator_actions"("entry_id");


-- ---- Summaries and search for the operator console (lib/operator/overview.ts, lib/operator/list.ts) ----
-- Kept by triggers, so every way a row changes (the site, the operator tool, the sqlite3 shell)
-- keeps them true, in the same transaction as the change.

-- Where a sign-up came from, as the overview splits it: its utm_source and utm_campaign, or
-- "direct" / "none" without them. The same expressions are in lib/operator/overview.ts.
CREATE TRIGGER "waitlist_entries_after_insert" AFTER INSERT ON "waitlist_entries" BEGIN
    INSERT INTO "signup_days" ("day", "source", "campaign", "signups", "confirmed")
    VALUES (substr(NEW."created_at", 1, 10), coalesce(NEW."utm_source", 'direct'), coalesce(NEW."utm_campaign", 'none'), 1, NEW."confirmed_at" IS NOT NULL)
    ON CONFLICT ("day", "source", "campaign") DO UPDATE SET "signups" = "signups" + 1, "confirmed" = "confirmed" + excluded."confirmed";
    INSERT INTO "signup_segments" ("business_type", "company_size", "signups")
    VALUES (NEW."business_type", NEW."company_size", 1)
    ON CONFLICT ("business_type", "company_size") DO UPDATE SET "signups" = "signups" + 1;
    INSERT INTO "waitlist_search" ("rowid", "contact_name", "company_name", "email")
    VALUES (NEW."id", NEW."contact_name", NEW."company_name", NEW."email");
END;

CREATE TRIGGER "waitlist_entries_after_delete" AFTER DELETE ON "waitlist_entries" BEGIN
    UPDATE "signup_days" SET "signups" = "signups" - 1, "confirmed" = "confirmed" - (OLD."confirmed_at" IS NOT NULL)
    WHERE "day" = substr(OLD."created_at", 1, 10) AND "source" = coalesce(OLD."utm_source", 'direct') AND "campaign" = coalesce(OLD."utm_campaign", 'none');
    UPDATE "signup_segments" SET "signups" = "signups" - 1
    WHERE "business_type" = OLD."business_type" AND "company_size" = OLD."company_size";
    INSERT INTO "waitlist_search" ("waitlist_search", "rowid", "contact_name", "company_name", "email")
    VALUES ('delete', OLD."id", OLD."contact_name", OLD."company_name", OLD."email");
END;

-- A confirmation (the usual update), or a correction made in the shell: the old row's counts out, the new row's in.
CREATE TRIGGER "waitlist_entries_after_update_counted" AFTER UPDATE OF "created_at", "utm_source", "utm_campaign", "confirmed_at", "business_type", "company_size" ON "waitlist_entries" BEGIN
    UPDATE "signup_days" SET "signups" = "signups" - 1, "confirmed" = "confirmed" - (OLD."confirmed_at" IS NOT NULL)
    WHERE "day" = substr(OLD."created_at", 1, 10) AND "source" = coalesce(OLD."utm_source", 'direct') AND "campaign" = coalesce(OLD."utm_campaign", 'none');
    INSERT INTO "signup_days" ("day", "source", "campaign", "signups", "confirmed")
    VALUES (substr(NEW."created_at", 1, 10), coalesce(NEW."utm_source", 'direct'), coalesce(NEW."utm_campaign", 'none'), 1, NEW."confirmed_at" IS NOT NULL)
    ON CONFLICT ("day", "source", "campaign") DO UPDATE SET "signups" = "signups" + 1, "confirmed" = "confirmed" + excluded."confirmed";
    UPDATE "signup_segments" SET "signups" = "signups" - 1
    WHERE "business_type" = OLD."business_type" AND "company_size" = OLD."company_size";
    INSERT INTO "signup_segments" ("business_type", "company_size", "signups")
    VALUES (NEW."business_type", NEW."company_size", 1)
    ON CONFLICT ("business_type", "company_size") DO UPDATE SET "signups" = "signups" + 1;
END;

-- Search by any part of a name, company or email (three characters or more): an index of the
-- entries' trigrams. It holds no copy of the text (content=), only the index.
CREATE VIRTUAL TABLE "waitlist_search" USING fts5(
    "contact_name", "company_name", "email",
    content = 'waitlist_entries', content_rowid = 'id', tokenize = 'trigram'
);

CREATE TRIGGER "waitlist_entries_after_update_searched" AFTER UPDATE OF "contact_name", "company_name", "email" ON "waitlist_entries" BEGIN
    INSERT INTO "waitlist_search" ("waitlist_search", "rowid", "contact_name", "company_name", "email")
    VALUES ('delete', OLD."id", OLD."contact_name", OLD."company_name", OLD."email");
    INSERT INTO "waitlist_search" ("rowid", "contact_name", "company_name", "email")
    VALUES (NEW."id", NEW."contact_name", NEW."company_name", NEW."email");
END;

-- The rows already there.
INSERT INTO "signup_days" ("day", "source", "campaign", "signups", "confirmed")
SELECT substr("created_at", 1, 10), coalesce("utm_source", 'direct'), coalesce("utm_campaign", 'none'), count(*), count("confirmed_at")
FROM "waitlist_entries" GROUP BY 1, 2, 3;
INSERT INTO "signup_segments" ("business_type", "company_size", "signups")
SELECT "business_type", "company_size", count(*) FROM "waitlist_entries" GROUP BY 1, 2;
INSERT INTO "waitlist_search" ("waitlist_search") VALUES ('rebuild');
