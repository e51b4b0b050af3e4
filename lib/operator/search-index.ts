/**
 * The console's search index (waitlist_search: trigrams of contact name, company name and
 * email) filled behind the sign-ups rather than inside each one: at a million rows its insert
 * was three quarters of a sign-up's time in the database (docs/performance.md). Every instance
 * runs this each second; the index always holds exactly the entries up to
 * waitlist_search_state.indexed_up_to, moved in the same transaction as the rows it adds, so
 * two instances never index a row twice. The list's search reads the newer entries directly
 * (lib/operator/list.ts), so nothing waits for this to be found.
 */
import "server-only";
import { getDatabase, whileBusy, type Database } from "../db";
import { runPeriodically } from "../periodic";

/** Entries indexed per transaction: a backlog (a restore, a long stop) is worked through in short writes. */
const BATCH = 2_000;
const SEARCH_INDEX_EVERY_MS = 1_000;

/** The newest BATCH entries' upper id past the mark: the rows one pass indexes. */
const PASS_END = `(SELECT max(id) FROM (SELECT id FROM waitlist_entries WHERE id > (SELECT indexed_up_to FROM waitlist_search_state) ORDER BY id LIMIT ${BATCH}))`;

/** Indexes the next entries not yet in the index (at most BATCH); how many it added. */
export async function indexNewEntries(database: Database): Promise<number> {
  // A read first: with nothing new (most seconds), no write transaction, no sync, no lock taken.
  const [{ behind }] = await database.$queryRaw<[{ behind: unknown }]>`
    SELECT EXISTS (SELECT 1 FROM waitlist_entries WHERE id > (SELECT indexed_up_to FROM waitlist_search_state)) AS behind`;
  if (!Number(behind)) return 0;
  const [added] = await whileBusy(() =>
    database.$transaction([
      database.$executeRawUnsafe(`
        INSERT INTO waitlist_search (rowid, contact_name, company_name, email)
        SELECT id, contact_name, company_name, email FROM waitlist_entries
        WHERE id > (SELECT indexed_up_to FROM waitlist_search_state) AND id <= ${PASS_END}`),
      database.$executeRawUnsafe(`UPDATE waitlist_search_state SET indexed_up_to = coalesce(${PASS_END}, indexed_up_to)`),
    ]),
  );
  return added;
}

/** Indexes every entry not yet in the index (after a seed or a restore); how many it added. */
export async function indexAllEntries(database: Database): Promise<number> {
  let total = 0;
  for (;;) {
    const added = await indexNewEntries(database);
    total += added;
    if (added < BATCH) return total;
  }
}

/** server.ts: each second, whatever has joined since. */
export function startSearchIndexer(): () => void {
  return runPeriodically({
    name: "search_index",
    everyMs: SEARCH_INDEX_EVERY_MS,
    run: async () => {
      await indexAllEntries(getDatabase());
    },
  });
}
