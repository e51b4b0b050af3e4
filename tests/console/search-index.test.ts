/**
 * The console's search index filled behind the sign-ups (lib/console/search-index.ts), on a
 * real SQLite file on both drivers: a search finds entries whether or not they are indexed yet,
 * once each and newest first; removals and changes keep the index whole; the indexer catches
 * up in passes and moves its mark with the rows it adds.
 */
import { describe, expect, it } from "vitest";
import { createDatabase, getDatabase } from "@/lib/db";
import { databaseSettings, parseEnv } from "@/lib/env";
import { listPage, parseListQuery } from "@/lib/console/list";
import { indexAllEntries, indexNewEntries, PASS_ROWS, SATURATED_TURNS_PER_PASS, searchIndexTurns } from "@/lib/console/search-index";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { validSignup } from "../fixtures/signup";
import { holdWriteLock, setUpTestDatabase } from "../support/database";

const { url, file } = setUpTestDatabase();

async function signUp(company: string, email: string): Promise<number> {
  const result = await addToWaitlist(waitlistSignupSchema.parse(validSignup({ company_name: company, email })));
  if (result.outcome !== "created") throw new Error(result.outcome);
  return result.entry.id;
}

const search = async (q: string, limit = 50) =>
  (await listPage(getDatabase(), parseListQuery(new URLSearchParams({ q })).query, limit)).entries.map((entry) => entry.id);
const mark = async () => (await getDatabase().waitlistSearchState.findUniqueOrThrow({ where: { id: 1 } })).indexedUpTo;
/**
 * FTS5's own check: of the index itself, and once every entry is indexed (`againstEntries`), that it
 * holds exactly what waitlist_entries says (a 'delete' of a row it never held would fail this).
 */
const indexIsWhole = (againstEntries = false) =>
  getDatabase().$executeRawUnsafe(
    `INSERT INTO waitlist_search (waitlist_search, rank) VALUES ('integrity-check', ${againstEntries ? 1 : 0})`,
  );

/** `count` entries stored at once by SQL ("Backlog Co 0", ...), none of them indexed yet. */
async function storeBacklog(count: number): Promise<void> {
  const rows = JSON.stringify(Array.from({ length: count }, (_, i) => [`Backlog Co ${i}`, `b${i}@backlog.example`]));
  await getDatabase().$executeRaw`
    INSERT INTO waitlist_entries (company_name, contact_name, email, email_normalized, phone, business_type, company_size, created_at)
    SELECT value ->> 0, 'Pat', value ->> 1, value ->> 1, '555 0100', 'hvac', '1-5', '2026-11-25T10:00:00.000+00:00' FROM json_each(${rows})`;
}

describe("the search index behind the sign-ups", () => {
  it("finds indexed and not yet indexed entries alike, once each, newest first, page by page", async () => {
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await signUp(`Northwind Heating ${i}`, `old${i}@northwind.example`));
    expect(await indexNewEntries(getDatabase())).toBe(3);
    expect(await mark()).toBe(ids[2]);
    for (let i = 3; i < 5; i += 1) ids.push(await signUp(`Northwind Heating ${i}`, `new${i}@northwind.example`));
    await signUp("Contoso Plumbing", "someone@contoso.example");

    expect(await search("northwind")).toEqual([...ids].reverse());
    expect(await search("NORTHWIND heat")).toEqual([...ids].reverse());
    // A page of two, then the next from its cursor: the newest two are not indexed, the next are.
    const first = await listPage(getDatabase(), parseListQuery(new URLSearchParams({ q: "northwind" })).query, 2);
    expect(first.entries.map((entry) => entry.id)).toEqual([ids[4], ids[3]]);
    const second = await listPage(getDatabase(), parseListQuery(new URLSearchParams({ q: "northwind", after: first.older! })).query, 2);
    expect(second.entries.map((entry) => entry.id)).toEqual([ids[2], ids[1]]);
    // Characters that mean something to LIKE or FTS are plain text.
    expect(await search("100%")).toEqual([]);
  });

  it("keeps the index whole through removals and changes, indexed or not", async () => {
    const indexed = [await signUp("Fabrikam Electric", "a@fabrikam.example"), await signUp("Fabrikam Electric", "b@fabrikam.example")];
    await indexAllEntries(getDatabase());
    const fresh = [await signUp("Fabrikam Electric", "c@fabrikam.example"), await signUp("Fabrikam Electric", "d@fabrikam.example")];

    await getDatabase().waitlistEntry.delete({ where: { id: indexed[0] } });
    await getDatabase().waitlistEntry.delete({ where: { id: fresh[0] } });
    await getDatabase().waitlistEntry.update({ where: { id: indexed[1] }, data: { companyName: "Tailspin Roofing" } });
    await getDatabase().waitlistEntry.update({ where: { id: fresh[1] }, data: { companyName: "Tailspin Roofing" } });
    await indexIsWhole();
    expect(await search("fabrikam")).toEqual([fresh[1], indexed[1]]); // their emails still say fabrikam
    expect(await search("tailspin")).toEqual([fresh[1], indexed[1]]);

    expect(await indexAllEntries(getDatabase())).toBe(1);
    await indexIsWhole(true);
    expect(await search("tailspin")).toEqual([fresh[1], indexed[1]]);
    expect(await indexNewEntries(getDatabase())).toBe(0);
  });

  it("works through a backlog in passes, its mark moving with each", async () => {
    await storeBacklog(4_500);
    const first = Number((await getDatabase().waitlistEntry.findFirstOrThrow({ where: { companyName: "Backlog Co 0" } })).id);
    expect(await indexNewEntries(getDatabase())).toBe(PASS_ROWS);
    expect(await mark()).toBe(first + PASS_ROWS - 1);
    expect(await indexAllEntries(getDatabase())).toBe(4_500 - PASS_ROWS);
    await indexIsWhole(true);
    expect((await search("backlog co 4499")).length).toBe(1);
  });

  it("makes one pass every few turns while the main thread is saturated, and indexes the rest once it eases", async () => {
    await storeBacklog(600);
    const firstId = Number((await getDatabase().waitlistEntry.findFirstOrThrow({ where: { companyName: "Backlog Co 0" } })).id);
    // The gauge itself has its own test (tests/event-loop-load.test.ts); here the site is saturated until it is not.
    let saturated = true;
    const turn = searchIndexTurns(getDatabase, { saturated: () => saturated });
    const saturatedTurns = [];
    for (let n = 0; n < 2 * SATURATED_TURNS_PER_PASS; n++) saturatedTurns.push(await turn());
    // Nothing written in between: each pass is a new FTS5 segment, and many small ones merge at a cost.
    const pass = [...Array(SATURATED_TURNS_PER_PASS - 1).fill(0), PASS_ROWS];
    expect(saturatedTurns).toEqual([...pass, ...pass]);
    expect(await mark()).toBe(firstId + 2 * PASS_ROWS - 1);
    // Then the load eases: the next turn takes everything left, in passes.
    saturated = false;
    expect(await turn()).toBe(600 - 2 * PASS_ROWS);
    await indexIsWhole(true);
  });

  it("gives up a pass at once while another process holds the write lock (the connection stays free for sign-ups), and makes it later", async () => {
    const id = await signUp("Litware Heating", "lock@litware.example");
    const lock = await holdWriteLock(file);
    try {
      const started = performance.now();
      expect(await indexNewEntries(getDatabase())).toBe(0);
      // Not the busy timeout (3 s): the pass did not wait for the lock.
      expect(performance.now() - started).toBeLessThan(1_000);
      // The connection is whole: a read right after it answers.
      expect(await search("litware")).toEqual([id]);
    } finally {
      await lock.release();
    }
    expect(await indexNewEntries(getDatabase())).toBe(1);
    expect(await mark()).toBe(id);
    await indexIsWhole(true);

    // The connection's busy timeout is back for everything else: a write waits out a short lock
    // (better-sqlite3; libSQL's engine never waits, and the site's writes try again instead).
    if (process.env.DATABASE_DRIVER !== "libsql") {
      const short = await holdWriteLock(file);
      setTimeout(() => void short.release(), 300);
      expect(await getDatabase().$executeRaw`UPDATE waitlist_search_state SET indexed_up_to = indexed_up_to WHERE id = ${1}`).toBe(1);
    }
  });

  it("merges its segments eight at a time (fewer rewrites of each entry, so shorter passes: docs/performance.md)", async () => {
    const [config] = await getDatabase().$queryRaw<[{ v: unknown }]>`SELECT v FROM waitlist_search_config WHERE k = 'automerge'`;
    expect(Number(config.v)).toBe(8);
  });

  it("indexes each entry once when two instances work the same backlog at the same moment", async () => {
    const rows = JSON.stringify(Array.from({ length: 3_000 }, (_, i) => [`Race Co ${i}`, `r${i}@race.example`]));
    await getDatabase().$executeRaw`
      INSERT INTO waitlist_entries (company_name, contact_name, email, email_normalized, phone, business_type, company_size, created_at)
      SELECT value ->> 0, 'Pat', value ->> 1, value ->> 1, '555 0100', 'hvac', '1-5', '2026-11-25T10:00:00.000+00:00' FROM json_each(${rows})`;
    const other = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: url }));
    try {
      const added = await Promise.all([
        indexAllEntries(getDatabase()),
        indexAllEntries(other),
        indexAllEntries(getDatabase()),
        indexAllEntries(other),
      ]);
      // A pass that lost the race adds nothing and ends its look; whatever is left waits for the next second.
      const rest = await indexAllEntries(getDatabase());
      expect(added.reduce((sum, n) => sum + n, rest)).toBe(3_000);
    } finally {
      await other.$disconnect();
    }
    expect(await mark()).toBe(Number((await getDatabase().waitlistEntry.aggregate({ _max: { id: true } }))._max.id));
    // A row indexed twice, or one left out, fails FTS5's check against the entries.
    await indexIsWhole(true);
    expect((await search("race co 2999")).length).toBe(1);
  });
});
