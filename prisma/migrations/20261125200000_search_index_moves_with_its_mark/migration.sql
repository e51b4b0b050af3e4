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

-- FTS5 merges a level's segments once it holds 'automerge' of them (default 4). At 8 each entry is
-- rewritten by fewer merges: on a copy of the million-entry benchmark database, 120 passes of 250
-- entries took 511-538 ms in all instead of 733-880, and 15-16 of them over 10 ms instead of 30-32
-- (every sign-up waits behind a pass). A search reads up to twice as many segments, which at a
-- million entries is still a few milliseconds (npm run bench:operator).
INSERT INTO "waitlist_search" ("waitlist_search", "rank") VALUES ('automerge', 8);
