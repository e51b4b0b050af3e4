-- Moving the search index's mark forward indexes the entries it passes, in the same statement
-- (lib/operator/search-index.ts). Before, a transaction of two statements did it, and held the
-- write lock across the round trips between the database thread and a busy main thread in
-- between: up to 300 ms at a time under load, every sign-up waiting behind it (issue 29,
-- docs/performance.md). One statement runs in the database thread from start to end.
CREATE TRIGGER "waitlist_search_state_after_update_indexes" AFTER UPDATE OF "indexed_up_to" ON "waitlist_search_state"
WHEN NEW."indexed_up_to" > OLD."indexed_up_to" BEGIN
    INSERT INTO "waitlist_search" ("rowid", "contact_name", "company_name", "email")
    SELECT "id", "contact_name", "company_name", "email" FROM "waitlist_entries"
    WHERE "id" > OLD."indexed_up_to" AND "id" <= NEW."indexed_up_to";
END;
