/**
 * The console's search index (waitlist_search: trigrams of contact name, company name and
 * email) filled behind the sign-ups rather than inside each one: at a million rows its insert
 * was three quarters of a sign-up's time in the database (docs/performance.md). Every instance
 * runs this each second; the index always holds exactly the entries up to
 * waitlist_search_state.indexed_up_to. Moving the mark is what indexes the entries it passes (a
 * trigger, in the same statement), and the mark moves only from where this pass read it, so two
 * instances never index a row twice. The list's search reads the newer entries directly
 * (lib/console/list.ts), so nothing waits for this to be found.
 */
import "server-only";
import { getDatabase, Prisma, temporaryKind, WITHOUT_SYNC, WITHOUT_WAITING, type Database } from "../db";
import { EventLoopLoad } from "../event-loop-load";
import { runPeriodically } from "../periodic";

/**
 * Entries indexed per statement. Every other query waits while one runs: at a million entries a
 * pass of 250 takes about 2 ms, up to 30 when FTS5 merges its segments (docs/performance.md, issue 29).
 */
export const PASS_ROWS = 250;
/**
 * While the main thread is saturated (lib/event-loop-load.ts), one pass every this many turns
 * (seconds) and none in between. At a million entries a turn's full catch-up held the database
 * 30-47 ms under launch load, every sign-up behind it waiting: p99 1.10-1.25 of the floor in
 * bench:launch. A pass of PASS_ROWS now and then keeps the index moving (25 entries a second); the
 * rest waits for the load to ease, and is found meanwhile (lib/console/list.ts). Not a small pass
 * every turn: each pass is a new FTS5 segment, and after 160 passes of 25 the merges that tiny
 * segments bring held the database 123 ms in one pass (docs/performance.md).
 */
export const SATURATED_TURNS_PER_PASS = 10;
const SEARCH_INDEX_EVERY_MS = 1_000;

type Pass = { mark: bigint | number; end: bigint | number | null; rows: bigint | number };

/** Indexes the next entries not yet in the index (at most `batch`); how many it added. */
export async function indexNewEntries(database: Database, batch = PASS_ROWS): Promise<number> {
  // A read first: with nothing new (most seconds), no write, no lock taken, no sync.
  const [pass] = await database.$queryRaw<[Pass]>`
    SELECT mark, max(id) AS end, count(id) AS rows FROM (SELECT indexed_up_to AS mark FROM waitlist_search_state)
    LEFT JOIN (SELECT id FROM waitlist_entries WHERE id > (SELECT indexed_up_to FROM waitlist_search_state) ORDER BY id LIMIT ${batch}) ON true`;
  if (pass.end === null) return 0;
  // Only from the mark as read: if another instance moved it meanwhile, this pass adds nothing.
  // The commit needs no sync of its own: the next sign-up's commit syncs the log with it, and a
  // pass lost to a power cut is lost together with its mark, so it is simply made again. Nor does
  // it wait for another process's write lock: it would hold the site's connection, and every
  // sign-up behind it, while it waited; the next second tries again (lib/db).
  try {
    const moved = await database.$queryRaw<unknown[]>`${Prisma.raw(WITHOUT_SYNC + WITHOUT_WAITING)}
      UPDATE waitlist_search_state SET indexed_up_to = ${pass.end} WHERE id = 1 AND indexed_up_to = ${pass.mark} RETURNING id`;
    return moved.length === 0 ? 0 : Number(pass.rows);
  } catch (error) {
    if (temporaryKind(error) === "database_busy") return 0;
    throw error;
  }
}

/** Indexes every entry not yet in the index (after a seed or a restore); how many it added. */
export async function indexAllEntries(database: Database, batch = PASS_ROWS): Promise<number> {
  let total = 0;
  for (;;) {
    const added = await indexNewEntries(database, batch);
    total += added;
    if (added < batch) return total;
  }
}

/**
 * The indexer's turns: each indexes every entry not yet in the index, but while the site is
 * saturated only every SATURATED_TURNS_PER_PASS-th turn makes a pass, of PASS_ROWS entries.
 */
export function searchIndexTurns(database: () => Database, load: Pick<EventLoopLoad, "saturated">): () => Promise<number> {
  let saturatedTurns = 0;
  return async () => {
    if (!load.saturated()) {
      saturatedTurns = 0;
      return indexAllEntries(database());
    }
    saturatedTurns += 1;
    if (saturatedTurns < SATURATED_TURNS_PER_PASS) return 0;
    saturatedTurns = 0;
    return indexNewEntries(database());
  };
}

/** server.ts: each second, whatever has joined since (now and then a pass while the site is saturated). */
export function startSearchIndexer(): () => void {
  const turn = searchIndexTurns(getDatabase, new EventLoopLoad());
  return runPeriodically({
    name: "search_index",
    everyMs: SEARCH_INDEX_EVERY_MS,
    run: async () => {
      await turn();
    },
  });
}
