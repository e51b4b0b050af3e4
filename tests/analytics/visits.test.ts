/**
 * Visit counting (lib/analytics/; docs/analytics.md) through the real handler on a real SQLite
 * file migrated with the project's migrations, on both drivers: a visitor counted once a day
 * per row however many events, Do Not Track and bots, other sites and oversized bodies, the
 * per-address cap, nothing that names a visitor in any table, the funnel joined with the
 * entries' later steps, page speed percentiles, and what is forgotten when a day ends.
 */
import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { captureLog } from "@/lib/log";
import { createVisitHandler, referrerOf } from "@/lib/analytics/handler";
import { VisitCounter } from "@/lib/analytics/record";
import {
  campaignFunnels,
  campaignsQuerySchema,
  funnelCsv,
  pageFunnels,
  pageSpeed,
  rangeOf,
  referrers,
  siteFunnel,
} from "@/lib/analytics/report";
import { parseFilters } from "@/lib/filters";
import { forgetPastDays, removeExpiredVisitFigures } from "@/lib/analytics/sweep";
import { bucketOf, bucketValue, percentileOf, ratingOf } from "@/lib/analytics/vitals";
import { DailySalt, truncatedAddress } from "@/lib/analytics/visitor";
import { changeFollowUp } from "@/lib/follow-up/changes";
import { CLIENT_ADDRESS_HEADER } from "@/lib/security/client-address";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { validSignup } from "../fixtures/signup";
import { holdWriteLock, setUpTestDatabase } from "../support/database";

const database = setUpTestDatabase();

const SITE = "https://fieldcrew.example";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const TODAY = new Date();
const DAY = TODAY.toISOString().slice(0, 10);

/** The real handler, answering as the site does: before what it accepted is written. */
function visitHandler({ cap = 2_000, maxPending }: { cap?: number; maxPending?: number } = {}, now = () => TODAY) {
  return createVisitHandler({
    siteUrl: SITE,
    counter: new VisitCounter({ database: getDatabase, capPerAddress: cap, maxPending }),
    salt: new DailySalt(getDatabase),
    now,
  });
}

/** The real handler; each answer is returned once what it accepted is written (beacons are answered first, handler.ts). */
function handler(cap = 2_000, now = () => TODAY) {
  const visits = visitHandler({ cap }, now);
  const settled = async (answer: Response) => (await visits.drain(), answer);
  return {
    post: async (request: Request) => settled(await visits.post(request)),
    pixel: async (request: Request) => settled(await visits.pixel(request)),
  };
}

type Beacon = { address?: string; userAgent?: string; headers?: Record<string, string> };

function beacon(body: unknown, { address = "203.0.113.7", userAgent = CHROME, headers = {} }: Beacon = {}): Request {
  return new Request(`${SITE}/api/visit`, {
    method: "POST",
    headers: {
      "content-type": "text/plain;charset=UTF-8",
      origin: SITE,
      "sec-fetch-site": "same-origin",
      "user-agent": userAgent,
      [CLIENT_ADDRESS_HEADER]: address,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const campaign = { utm_source: "newsletter", utm_medium: "email", utm_campaign: "spring" };

async function traffic(step: string, dimension: string, value: string) {
  return getDatabase().trafficDay.findUnique({ where: { day_step_dimension_value: { day: DAY, step, dimension, value } } });
}

describe("counting visits", () => {
  it("counts every view, and each visitor once a day per page, campaign and site", async () => {
    const visits = handler();
    for (let i = 0; i < 3; i += 1)
      expect(
        (await visits.post(beacon({ type: "view", page: "/", referrer: "https://www.google.com/search?q=hvac", ...campaign }))).status,
      ).toBe(204);
    // Another address in the same /24 with the same browser family: the same visitor of the day.
    await visits.post(beacon({ type: "view", page: "/about", referrer: `${SITE}/`, ...campaign }, { address: "203.0.113.99" }));
    // Another network: another visitor.
    await visits.post(beacon({ type: "view", page: "/", ...campaign }, { address: "198.51.100.4" }));

    expect(await traffic("view", "site", "")).toMatchObject({ events: 5, visitors: 2 });
    expect(await traffic("view", "page", "/")).toMatchObject({ events: 4, visitors: 2 });
    expect(await traffic("view", "page", "/about")).toMatchObject({ events: 1, visitors: 1 });
    expect(await traffic("view", "campaign", JSON.stringify(["newsletter", "email", "spring"]))).toMatchObject({ events: 5, visitors: 2 });
    // Referring sites: the host only; a move between our own pages is not a referral.
    expect(await referrers(getDatabase(), rangeOf(DAY, DAY))).toEqual([
      { site: "google.com", visitors: 1, views: 3 },
      { site: "(direct)", visitors: 1, views: 1 },
    ]);
  });

  it("counts a /join view as the form opened on the page the visitor came from", async () => {
    const visits = handler();
    await visits.post(beacon({ type: "view", page: "/join", referrer: `${SITE}/careers` }));
    await visits.post(beacon({ type: "open", page: "/about" }));
    await visits.post(beacon({ type: "open", page: "/about" }));
    expect(await traffic("open", "page", "/careers")).toMatchObject({ events: 1, visitors: 1 });
    expect(await traffic("open", "page", "/about")).toMatchObject({ events: 2, visitors: 1 });
    expect(await traffic("open", "site", "")).toMatchObject({ events: 3, visitors: 1 });
  });

  it("gives no visitor hash under Do Not Track or Global Privacy Control: events, no visitors", async () => {
    const visits = handler();
    await visits.post(beacon({ type: "view", page: "/" }, { headers: { dnt: "1" } }));
    await visits.post(beacon({ type: "view", page: "/" }, { headers: { "sec-gpc": "1" } }));
    expect(await traffic("view", "site", "")).toMatchObject({ events: 2, visitors: 0 });
    expect(await getDatabase().visitMark.count()).toBe(0);
  });

  it("does not count bots, pages it does not count, or a request without a user agent", async () => {
    const visits = handler();
    expect((await visits.post(beacon({ type: "view", page: "/" }, { userAgent: GOOGLEBOT }))).status).toBe(204);
    expect((await visits.post(beacon({ type: "view", page: "/waitlist/entry/some-secret-token" }))).status).toBe(204);
    expect((await visits.post(beacon({ type: "view", page: "/" }, { userAgent: "" }))).status).toBe(204);
    expect(await getDatabase().trafficDay.count()).toBe(0);
  });

  it("refuses other sites, oversized bodies and what is not an event, counting nothing", async () => {
    const visits = handler();
    expect((await visits.post(beacon({ type: "view", page: "/" }, { headers: { origin: "https://evil.example" } }))).status).toBe(403);
    expect(
      (await visits.post(beacon({ type: "view", page: "/" }, { headers: { origin: "null", "sec-fetch-site": "cross-site" } }))).status,
    ).toBe(403);
    expect((await visits.post(beacon({ type: "view", page: "/", referrer: "x".repeat(2_000) }))).status).toBe(413);
    expect((await visits.post(beacon("{not json"))).status).toBe(400);
    expect((await visits.post(beacon({ type: "view", page: "/", cookie: "no" }))).status).toBe(400);
    expect((await visits.post(beacon({ type: "vital", page: "/", metric: "FID", value: 3 }))).status).toBe(400);
    expect(
      (await visits.post(beacon({ type: "view", page: "/" }, { headers: { "content-type": "application/x-www-form-urlencoded" } }))).status,
    ).toBe(415);
    const pixel = await visits.pixel(
      new Request(`${SITE}/api/visit`, { headers: { referer: "https://evil.example/", "user-agent": CHROME } }),
    );
    expect(pixel.status).toBe(403);
    expect(await getDatabase().trafficDay.count()).toBe(0);
  });

  it("lets one address add no more than the cap to a day, whatever it sends", async () => {
    const visits = handler(5);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        visits.post(beacon({ type: "view", page: "/", utm_campaign: `c${i}` }, { userAgent: i % 2 ? CHROME : IPHONE })),
      ),
    );
    await visits.post(beacon({ type: "view", page: "/about" }));
    expect(await traffic("view", "site", "")).toMatchObject({ events: 5 });
    expect(await getDatabase().trafficDay.count({ where: { dimension: "campaign" } })).toBe(5);
    // Another address is still counted.
    await visits.post(beacon({ type: "view", page: "/about" }, { address: "192.0.2.1" }));
    expect(await traffic("view", "site", "")).toMatchObject({ events: 6 });
  });

  it("counts an event that waited more than 2 s behind a batch held up by another process's lock", async () => {
    const visits = visitHandler();
    // The day's salt first, so that what follows queues only the counting.
    await visits.post(beacon({ type: "view", page: "/" }));
    await visits.drain();
    const lock = await holdWriteLock(database.file);
    try {
      // The first event's batch starts and waits for the lock (up to the busy timeout, 3 s) ...
      expect((await visits.post(beacon({ type: "view", page: "/" }))).status).toBe(204);
      await sleep(50);
      // ... and the second waits behind it for the next batch, longer than the 2 s the handler
      // once gave an event before dropping it unwritten.
      expect((await visits.post(beacon({ type: "view", page: "/" }, { address: "198.51.100.4" }))).status).toBe(204);
      await sleep(2_300);
    } finally {
      await lock.release();
    }
    await visits.drain();
    expect(await traffic("view", "site", "")).toMatchObject({ events: 3, visitors: 2 });
  }, 15_000);

  it("counts the events of a batch that met a lock held past the busy timeout, once it is released", async () => {
    const visits = handler();
    await visits.post(beacon({ type: "view", page: "/" }));
    const lock = await holdWriteLock(database.file);
    // Held for 4 s: a sign-up would have been answered 503 after 3 (BUSY_TIMEOUT_MS); nobody waits for a beacon's write.
    const released = sleep(4_000).then(() => lock.release());
    try {
      expect((await visits.post(beacon({ type: "view", page: "/about" }, { address: "198.51.100.4" }))).status).toBe(204);
    } finally {
      await released;
    }
    expect(await traffic("view", "site", "")).toMatchObject({ events: 2, visitors: 2 });
  }, 20_000);

  it("waits out another process's lock between tries, with the site's connection free meanwhile", async () => {
    const visits = visitHandler();
    await visits.post(beacon({ type: "view", page: "/" }));
    await visits.drain();
    const lock = await holdWriteLock(database.file);
    let readWhileLocked: boolean;
    try {
      await visits.post(beacon({ type: "view", page: "/" }));
      await sleep(100);
      // A read right behind the batch answers while the lock is still held. A batch that waited in
      // SQLite's busy handler (better-sqlite3's 3 s) would hold the one connection, and the read,
      // until the lock went; the guard lets the lock go after 2.5 s so that the test ends either way.
      readWhileLocked = await Promise.race([getDatabase().$queryRaw`SELECT 1`.then(() => true), sleep(2_500).then(() => false)]);
    } finally {
      await lock.release();
    }
    await visits.drain();
    expect(readWhileLocked).toBe(true);
    expect(await traffic("view", "site", "")).toMatchObject({ events: 2 });
  }, 15_000);

  it("logs the events a full queue turned away as one line with their number, not a line each", async () => {
    const visits = visitHandler({ maxPending: 2 });
    await visits.post(beacon({ type: "view", page: "/" }));
    await visits.drain();
    const captured = captureLog();
    const lock = await holdWriteLock(database.file);
    try {
      // One batch waits for the lock, two events wait behind it, the other nine are turned away.
      for (let i = 0; i < 12; i += 1) expect((await visits.post(beacon({ type: "view", page: "/" }))).status).toBe(204);
      await sleep(1_300);
    } finally {
      await lock.release();
    }
    await visits.drain();
    captured.stop();
    const refusals = captured.lines.filter((line) => line.fault === "visit_not_counted");
    expect(refusals).toEqual([expect.objectContaining({ temporary: true, events: expect.any(Number) })]);
    const counted = (await traffic("view", "site", ""))!.events - 1;
    expect(counted).toBeGreaterThan(0);
    expect(counted + (refusals[0]!.events as number)).toBe(12);
  }, 15_000);

  it("answers the day's first beacon 204 and counts it while another process holds the lock for a second", async () => {
    // A new handler makes the day's salt on its first event: a write, like another instance's.
    const visits = handler();
    const lock = await holdWriteLock(database.file);
    const released = sleep(1_000).then(() => lock.release());
    expect((await visits.post(beacon({ type: "view", page: "/" }))).status).toBe(204);
    await released;
    expect(await traffic("view", "site", "")).toMatchObject({ events: 1, visitors: 1 });
  }, 15_000);

  it("counts the no-JavaScript image from its page's address, campaign included", async () => {
    const visits = handler();
    const response = await visits.pixel(
      new Request(`${SITE}/api/visit`, {
        headers: {
          referer: `${SITE}/careers?utm_source=jobs-board&utm_campaign=hiring`,
          "user-agent": CHROME,
          [CLIENT_ADDRESS_HEADER]: "203.0.113.7",
        },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/gif");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await traffic("view", "page", "/careers")).toMatchObject({ events: 1, visitors: 1 });
    expect(await traffic("view", "campaign", JSON.stringify(["jobs-board", "none", "hiring"]))).toMatchObject({ events: 1 });
    // The image's referrer is our own page, not where the visit came from: no referring site at all.
    expect(await getDatabase().trafficDay.count({ where: { dimension: "referrer" } })).toBe(0);
  });

  it("stores no address, no user agent and no visitor hash past its day, and sets no cookie", async () => {
    const visits = handler();
    const answer = await visits.post(
      beacon(
        { type: "view", page: "/", referrer: "https://news.example.com/story/42?ref=abc", ...campaign },
        { address: "2001:db8:85a3::8a2e:370:7334", userAgent: IPHONE },
      ),
    );
    expect(answer.headers.get("set-cookie")).toBeNull();
    await visits.post(
      beacon({ type: "vital", page: "/", metric: "LCP", value: 1234 }, { address: "2001:db8:85a3::8a2e:370:7334", userAgent: IPHONE }),
    );
    // The database file and its write-ahead log: everything SQLite holds of it.
    const file = Buffer.concat([
      readFileSync(database.file),
      ...(existsSync(`${database.file}-wal`) ? [readFileSync(`${database.file}-wal`)] : []),
    ]);
    for (const secret of [
      "2001:db8",
      "2001:0db8",
      "iPhone",
      "Mobile/15E148",
      "story/42",
      "ref=abc",
      truncatedAddress("2001:db8:85a3::8a2e:370:7334"),
    ]) {
      expect(file.includes(Buffer.from(secret)), secret).toBe(false);
    }
    // The day's salt and marks are there today, and gone once the day is over.
    expect(await getDatabase().visitSalt.count()).toBe(1);
    expect(await forgetPastDays(getDatabase(), new Date(TODAY.getTime() + 86_400_000))).toBeGreaterThan(0);
    expect(await getDatabase().visitSalt.count()).toBe(0);
    expect(await getDatabase().visitMark.count()).toBe(0);
    expect(await getDatabase().visitAddress.count()).toBe(0);
    expect(await getDatabase().trafficDay.count()).toBeGreaterThan(0);
  });

  it("makes a new salt each day, so yesterday's visitor is today's new visitor", async () => {
    let now = new Date("2026-11-20T23:59:00Z");
    const visits = handler(2_000, () => now);
    await visits.post(beacon({ type: "view", page: "/" }));
    now = new Date("2026-11-21T00:01:00Z");
    await visits.post(beacon({ type: "view", page: "/" }));
    const salts = await getDatabase().visitSalt.findMany();
    expect(salts.map((row) => row.day).sort()).toEqual(["2026-11-20", "2026-11-21"]);
    expect(salts[0]!.salt).not.toBe(salts[1]!.salt);
    const days = await getDatabase().trafficDay.findMany({ where: { step: "view", dimension: "site" }, orderBy: { day: "asc" } });
    expect(days.map((row) => [row.day, row.visitors])).toEqual([
      ["2026-11-20", 1],
      ["2026-11-21", 1],
    ]);
  });
});

describe("the funnel", () => {
  async function signUp(overrides: Record<string, unknown>): Promise<number> {
    const result = await addToWaitlist(waitlistSignupSchema.parse(validSignup(overrides)), {});
    if (result.outcome !== "created") throw new Error(result.outcome);
    return result.entry.id;
  }

  it("follows a campaign and a page from visitors to invited", async () => {
    const visits = handler();
    const source = { source_page: "/about", ...campaign };
    await visits.post(beacon({ type: "view", page: "/about", ...campaign }));
    await visits.post(beacon({ type: "view", page: "/about", ...campaign }, { address: "198.51.100.4" }));
    await visits.post(beacon({ type: "open", page: "/about", ...campaign }));
    await visits.post(beacon({ type: "submit", page: "/about", ...campaign }));
    const contacted = await signUp(source);
    const invited = await signUp({ ...source, email: "second@fieldcrew-test.example" });
    await signUp({ email: "direct@fieldcrew-test.example" });
    const actor = { email: "ana@fieldcrew.example", operatorId: null };
    await changeFollowUp(getDatabase(), [contacted], { to: "contacted", note: "Called" }, actor, { deliveries: [] });
    await changeFollowUp(getDatabase(), [invited], { to: "invited", note: "Sent" }, actor, { deliveries: [] });
    await getDatabase().waitlistEntry.update({ where: { id: contacted }, data: { confirmedAt: new Date() } });

    const range = rangeOf(DAY, DAY);
    const [spring] = (await campaignFunnels(getDatabase(), range)).filter((row) => row.campaign === "spring");
    expect(spring).toEqual({
      source: "newsletter",
      medium: "email",
      campaign: "spring",
      visitors: 2,
      opened: 1,
      submitted: 1,
      stored: 2,
      confirmed: 1,
      contacted48h: 2,
      invited: 1,
    });
    const about = (await pageFunnels(getDatabase(), range)).find((row) => row.page === "/about");
    expect(about).toMatchObject({ visitors: 2, opened: 1, submitted: 1, stored: 2, confirmed: 1, contacted48h: 2, invited: 1 });
    expect(await siteFunnel(getDatabase(), range)).toMatchObject({ visitors: 2, stored: 3 });

    // A removal takes its entry out of every step it was counted in.
    await getDatabase().waitlistEntry.delete({ where: { id: invited } });
    expect((await campaignFunnels(getDatabase(), range)).find((row) => row.campaign === "spring")).toMatchObject({
      stored: 1,
      contacted48h: 1,
      invited: 0,
    });

    const csv = funnelCsv(range, await campaignFunnels(getDatabase(), range), await pageFunnels(getDatabase(), range));
    expect(csv.split("\r\n")[0]).toBe(
      "breakdown,source,medium,campaign,page,visitors,opened_form,sent_form,signed_up,confirmed_email,contacted_within_48h,invited,signed_up_without_counted_visit,conversion_percent,from,to",
    );
    expect(csv).toContain(`campaign,newsletter,email,spring,,2,1,1,1,1,1,0,0,50.0,${DAY},${DAY}\r\n`);
    // The direct sign-up came with no counted visit at all: a figure of its own, and no rate.
    expect(csv).toContain(`campaign,direct,none,none,,0,0,0,1,0,0,0,1,,${DAY},${DAY}\r\n`);
  });

  it("reads the Campaigns page's range and order from its address, dropping what is not valid", () => {
    const read = (params: Record<string, string>) => parseFilters(campaignsQuerySchema, new URLSearchParams(params));
    expect(read({ from: "2026-11-01", to: "2026-11-07", sort: "conversion", dir: "asc" }).query).toEqual({
      from: "2026-11-01",
      to: "2026-11-07",
      sort: "conversion",
      dir: "asc",
    });
    const bad = read({ from: "2026-02-30", to: "", sort: "email", dir: "sideways" });
    expect(bad.query).toEqual({});
    expect(bad.problems).toHaveLength(3);
    expect(rangeOf("2026-11-07", "2026-11-01")).toEqual({ from: "2026-11-01", to: "2026-11-07" });
    expect(rangeOf(undefined, undefined, new Date("2026-11-25T12:00:00Z"))).toEqual({ from: "2026-10-29", to: "2026-11-25" });
  });

  it("keeps a campaign's formula-like utm value inert in the CSV", async () => {
    await handler().post(beacon({ type: "view", page: "/", utm_source: '=HYPERLINK("https://evil.example")' }));
    const range = rangeOf(DAY, DAY);
    const csv = funnelCsv(range, await campaignFunnels(getDatabase(), range), []);
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
  });
});

describe("real visitors' page speed", () => {
  it("reads p75 per page and device from the buckets, rated against the thresholds", async () => {
    const visits = handler();
    const lcp = [1200, 1800, 2400, 2500, 3900];
    for (const [i, value] of lcp.entries())
      await visits.post(beacon({ type: "vital", page: "/", metric: "LCP", value }, { address: `198.51.${i}.1` }));
    await visits.post(beacon({ type: "vital", page: "/", metric: "CLS", value: 0.31 }, { userAgent: IPHONE }));
    const rows = await pageSpeed(getDatabase());
    const desktop = rows.find((row) => row.page === "/" && row.device === "desktop")!;
    // 75% of 5 is the 4th value, 2,500 ms: exactly the threshold, still good.
    expect(desktop.metrics.LCP.last7).toEqual({ p75: 2500, rating: "good", samples: 5 });
    expect(desktop.metrics.CLS.last28).toBeNull();
    const phone = rows.find((row) => row.page === "/" && row.device === "phone")!;
    expect(phone.metrics.CLS.last28).toEqual({ p75: 0.31, rating: "poor", samples: 1 });
  });

  it("puts each threshold on a bucket's edge", () => {
    expect(bucketValue("LCP", bucketOf("LCP", 2500))).toBe(2500);
    expect(bucketValue("LCP", bucketOf("LCP", 2501))).toBe(2600);
    expect(bucketValue("INP", bucketOf("INP", 200))).toBe(200);
    expect(bucketValue("CLS", bucketOf("CLS", 0.1))).toBe(0.1);
    expect(bucketValue("CLS", bucketOf("CLS", 0.25))).toBe(0.25);
    expect(ratingOf("INP", 201)).toBe("needs-improvement");
    expect(percentileOf("LCP", new Map())).toBeNull();
    expect(bucketValue("LCP", bucketOf("LCP", 900_000))).toBe(20_000);
  });
});

describe("retention of the day figures", () => {
  it("removes figures of days before WAITLIST_RETENTION_DAYS, keeps the rest", async () => {
    let now = new Date("2026-10-01T12:00:00Z");
    const visits = handler(2_000, () => now);
    await visits.post(beacon({ type: "view", page: "/" }));
    await visits.post(beacon({ type: "vital", page: "/", metric: "INP", value: 80 }));
    now = new Date("2026-11-20T12:00:00Z");
    await visits.post(beacon({ type: "view", page: "/" }));
    expect(await removeExpiredVisitFigures(getDatabase(), 30, new Date("2026-11-25T12:00:00Z"))).toBeGreaterThan(0);
    expect((await getDatabase().trafficDay.findMany({ select: { day: true }, distinct: ["day"] })).map((row) => row.day)).toEqual([
      "2026-11-20",
    ]);
    expect(await getDatabase().vitalDay.count()).toBe(0);
  });

  it("names a referring site by its host, and our own pages not at all", () => {
    const own = new Set([SITE]);
    expect(referrerOf("https://WWW.Bing.com/search?q=x", own)).toEqual({ site: "bing.com" });
    expect(referrerOf(`${SITE}/about/`, own)).toEqual({ ownPage: "/about" });
    expect(referrerOf(`${SITE}/waitlist/entry/some-key`, own)).toEqual({ ownPage: null });
    expect(referrerOf(undefined, own)).toEqual({ site: "(direct)" });
    expect(referrerOf("android-app://com.slack/", own)).toEqual({ site: "android-app app" });
  });
});
