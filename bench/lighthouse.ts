/**
 * Page benchmark (docs/performance.md): Lighthouse 12 with the mobile and the
 * desktop preset on /, /about, /careers, /join of the production site and on
 * the hello-world page of the same Next.js (bench/hello-world), alternating,
 * in one headless Chromium (Lighthouse clears the origin's cache and storage
 * before each run, so every load is a first visit; not launching a browser
 * for every run, and measuring accessibility, best practices and SEO once per
 * page, keeps the whole benchmark within 8 minutes). Prints the median
 * category scores and FCP, LCP, TBT, CLS and Speed Index per page, with each
 * page's ratio to the hello-world page, and how long it all took; full reports
 * go to bench/results/ (ignored by git).
 *
 * It also prints where each page's main-thread time goes (Lighthouse's mainthread-work-breakdown:
 * script evaluation, parsing and compiling, style and layout, ...) beside hello-world's, so a
 * regression names its cause. And, per page, each run against the hello-world run beside it
 * (medians of those ratios and differences: hello-world's own TBT moves by 2 x within one run), with
 * the part of TBT that is the document's own tasks (parsing the HTML and running its inline
 * scripts after the first paint) rather than the scripts'.
 *
 *   npm run bench:pages        9 mobile and 3 desktop runs by default (LIGHTHOUSE_RUNS sets both);
 *                              CHROME_PATH to use another Chromium;
 *                              for a quick look: LIGHTHOUSE_PRESETS=mobile LIGHTHOUSE_PAGES=/,/about
 *                              LIGHTHOUSE_CPU_SLOWDOWN=N: the mobile preset's CPU slowdown (4 by
 *                              default), to play a slower phone or machine; the mobile verdict is
 *                              then issue 41's, not issue 29's (which is for the default)
 *                              LIGHTHOUSE_AGAINST=URL: another build of the site, already running
 *                              (a clone at another commit: PORT=3300 npm start), measured in the
 *                              same rounds, page by page, beside this one (see AGAINST)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { throttling } from "lighthouse/core/config/constants.js";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { CHROMIUM_FLAGS, chromiumPath } from "../e2e/support/browser";
import { median } from "./support/median";
import { benchedPages, buildHelloWorld, ensureBuild, freshDatabase, startHelloWorld, startSiteServer } from "./support/site-server";

// The same Chromium and flags as the end-to-end tests; CHROME_PATH (Lighthouse's own name) also works.
const CHROME_PATH = process.env.CHROME_PATH ?? chromiumPath() ?? "/usr/bin/chromium";
const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_FLAGS];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const METRICS = {
  FCP: "first-contentful-paint",
  LCP: "largest-contentful-paint",
  TBT: "total-blocking-time",
  CLS: "cumulative-layout-shift",
  SI: "speed-index",
} as const;
type Preset = "mobile" | "desktop";
// Mobile figures are simulated from one noisy trace per run: on these machines back-to-back
// 5-run medians of the same code moved by 0.01-0.02 and TBT by 50-100 ms (docs/performance.md),
// which is the size of the targets; the targets are set on medians of 9. Desktop sits at 1.00.
const RUNS: Record<Preset, number> = process.env.LIGHTHOUSE_RUNS
  ? { mobile: Number(process.env.LIGHTHOUSE_RUNS), desktop: Number(process.env.LIGHTHOUSE_RUNS) }
  : { mobile: 9, desktop: 3 };
/** The mobile targets against hello-world (issue 29): performance within 0.01, TBT at most this many times. */
const TBT_TARGET = 1.1;
/**
 * Issue 41's targets on a slow phone (LIGHTHOUSE_CPU_SLOWDOWN calibrated so that hello-world's TBT is
 * about 350 ms), judged on the per-run medians: hello-world's own TBT moves by 2 x within a run.
 */
const SLOW_PHONE = { performanceWithin: 0.02, tbtRatio: 1.15 };
/** Lighthouse's groups of main-thread work (mainthread-work-breakdown), in the order printed. */
const WORK = {
  script: "scriptEvaluation",
  parse: "scriptParseCompile",
  style: "styleLayout",
  paint: "paintCompositeRender",
  html: "parseHTML",
  gc: "garbageCollection",
  other: "other",
} as const;
type Sample = Record<(typeof CATEGORIES)[number], number> &
  Record<keyof typeof METRICS, number> &
  Record<keyof typeof WORK, number> & {
    /** TBT's part from long tasks Lighthouse attributes to the page itself (see documentBlocking). */
    documentTBT: number;
    /** 1 when the recorded load painted only after it had finished loading (see stalledPaint), else 0. */
    stalled: number;
  };
const CPU_SLOWDOWN = process.env.LIGHTHOUSE_CPU_SLOWDOWN ? Number(process.env.LIGHTHOUSE_CPU_SLOWDOWN) : undefined;
/**
 * The base URL of another build to compare this one with. Each page's ratio to hello-world moves
 * by more between two hours than a change moves it (docs/performance.md, 2026-11-28, evening), so
 * two builds are only compared in the same rounds: each page here and there one after the other,
 * taking turns at going first, and judged round by round.
 */
const AGAINST = process.env.LIGHTHOUSE_AGAINST?.replace(/\/+$/, "");

/** The one browser every run uses, launched again if it has gone. */
let chrome: chromeLauncher.LaunchedChrome | undefined;
async function browser(): Promise<chromeLauncher.LaunchedChrome> {
  if (!chrome || chrome.process.exitCode !== null || chrome.process.signalCode !== null) {
    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  }
  return chrome;
}

type LongTask = { url: string; startTime: number; duration: number };

/**
 * The blocking time, counted as TBT counts it (each long task's time between FCP and TTI past
 * 50 ms), of the long tasks attributed to the page's own URL: parsing its HTML and running its
 * inline scripts, with the style and layout they bring. The rest of TBT is the script files'.
 */
function documentBlocking(url: string, tasks: LongTask[], fcp: number, tti: number): number {
  return tasks
    .filter((task) => task.url === url)
    .reduce((sum, task) => {
      const within = Math.min(task.startTime + task.duration, tti) - Math.max(task.startTime, fcp);
      return sum + Math.max(0, within - 50);
    }, 0);
}

/**
 * Whether the load Lighthouse recorded (unthrottled, on loopback) painted for the first time only
 * after it had finished loading. Chromium now and then holds the first frame of a new tab's page
 * back by about a second, with the main thread idle (Lighthouse issue 17148: viz stops sending the
 * page BeginFrames; here headless and headed alike): 5 of 8 loads of `/`, no load of hello-world,
 * which paints before its scripts run. Lantern then counts everything that finished before that
 * late paint as needed for it, and the run's simulated LCP and TBT grow by half or more
 * (docs/performance.md, 2026-11-28). On loopback every one of our pages paints before its load
 * event unless held back this way. bench:first-paint measures the stall itself.
 */
function stalledPaint(details: unknown): boolean {
  const observed = (details as { items?: { observedFirstPaint?: number; observedLoad?: number }[] } | undefined)?.items?.[0];
  return (
    observed?.observedFirstPaint !== undefined && observed.observedLoad !== undefined && observed.observedFirstPaint > observed.observedLoad
  );
}

/** The median of `values`, and a column of the tables that prints it with their range. */
function medianWithRange(values: number[]): { median: number; text: string } {
  const middle = median(values);
  return {
    median: middle,
    text: `${middle.toFixed(2)} (${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)})`.padEnd(22),
  };
}

/**
 * One Lighthouse run. `allCategories`: accessibility, best practices and SEO as well as performance.
 * They read the page as it stands after load, not how long it took, so one run of each page and
 * preset measures them (our four pages scored alike in each of 21 runs, 2026-11-27). Leaving them
 * and the full-page screenshot out of the other runs took a run from 8.0 to 5.4 s on a 2-core
 * machine (docs/performance.md); the trace the performance figures come from is the same.
 */
async function audit(url: string, preset: Preset, reportFile: string, allCategories: boolean): Promise<Sample> {
  const { port } = await browser();
  const result = await lighthouse(
    url,
    // disableStorageReset: false (the default) clears the origin's cache and storage first.
    {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: allCategories ? [...CATEGORIES] : ["performance"],
      disableFullPageScreenshot: true,
      ...(preset === "mobile" && CPU_SLOWDOWN ? { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: CPU_SLOWDOWN } } : {}),
    },
    preset === "desktop" ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  writeFileSync(reportFile, result.report as string);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`${url}: ${runtimeError.code} ${runtimeError.message}`);
  const sample = {} as Sample;
  for (const category of CATEGORIES) sample[category] = categories[category]?.score ?? NaN;
  for (const [name, id] of Object.entries(METRICS)) sample[name as keyof typeof METRICS] = audits[id]?.numericValue ?? NaN;
  const work = (audits["mainthread-work-breakdown"]?.details as { items?: { group: string; duration: number }[] } | undefined)?.items ?? [];
  for (const [name, group] of Object.entries(WORK)) {
    sample[name as keyof typeof WORK] = work.filter((item) => item.group === group).reduce((sum, item) => sum + item.duration, 0);
  }
  sample.stalled = stalledPaint(audits["metrics"]?.details) ? 1 : 0;
  const longTasks = (audits["long-tasks"]?.details as { items?: LongTask[] } | undefined)?.items ?? [];
  sample.documentTBT = documentBlocking(
    result.lhr.finalDisplayedUrl,
    longTasks,
    sample.FCP,
    audits["interactive"]?.numericValue ?? Infinity,
  );
  return sample;
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP); such a run is repeated, up to twice. */
async function auditWithRetry(url: string, preset: Preset, reportFile: string, allCategories: boolean): Promise<Sample> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url, preset, reportFile, allCategories);
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`  (repeating a run that failed: ${(error as Error).message.split("\n")[0]})`);
      // A fresh browser for the repeat, in case the failure was the browser's.
      chrome?.kill();
      chrome = undefined;
    }
  }
}

const started = performance.now();
if (AGAINST) {
  // Before the builds: a typo in the URL should not cost two minutes.
  const answer = await fetch(`${AGAINST}/`).catch((error: Error) => error);
  if (answer instanceof Error || !answer.ok) throw new Error(`LIGHTHOUSE_AGAINST: nothing answers at ${AGAINST}/ (start that build first)`);
}
ensureBuild(true);
buildHelloWorld();
const site = await startSiteServer({ port: 3245, databaseFile: freshDatabase("bench-pages") });
const hello = await startHelloWorld(3246);
const onlyPages = process.env.LIGHTHOUSE_PAGES?.split(",");
const PRESETS = (process.env.LIGHTHOUSE_PRESETS?.split(",") ?? ["mobile", "desktop"]) as Preset[];
const [helloWorld, ...pages] = benchedPages(site.url, hello.url).filter(
  (target) => target.name === "hello-world" || !onlyPages || onlyPages.includes(target.name),
);
/** Each page here, with the same page of the build at AGAINST. */
const comparedPages = AGAINST
  ? pages.map((page) => [page, { name: `${page.name} @against`, url: page.url.replace(site.url, AGAINST) }] as const)
  : [];
const targets = AGAINST ? [helloWorld!, ...comparedPages.flat()] : [helloWorld!, ...pages];
/** The width of the page column in the tables below. */
const NAME_WIDTH = Math.max(13, ...targets.map((target) => target.name.length + 1));
/** One round's order: hello-world first; with AGAINST, the two builds of each page take turns at going first. */
const roundOrder = (run: number) =>
  AGAINST && run % 2 === 0 ? [helloWorld!, ...comparedPages.flatMap(([here, there]) => [there, here])] : targets;
const resultsDir = path.join("bench", "results", `lighthouse-${new Date().toISOString().replace(/[:.]/g, "-")}`);
mkdirSync(resultsDir, { recursive: true });
const samples = new Map<string, Sample[]>();

try {
  const rounds = Math.max(...PRESETS.map((preset) => RUNS[preset]));
  for (let run = 1; run <= rounds; run += 1) {
    for (const preset of PRESETS.filter((preset) => run <= RUNS[preset])) {
      for (const target of roundOrder(run)) {
        const file = path.join(resultsDir, `${preset}-${target.name.replace(/\W+/g, "") || "home"}-${run}.json`);
        const sample = await auditWithRetry(target.url, preset, file, run === 1);
        const key = `${preset} ${target.name}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        console.log(`run ${run} ${key}: performance ${sample.performance}, TBT ${sample.TBT.toFixed(0)} ms, CLS ${sample.CLS.toFixed(3)}`);
      }
    }
  }
} finally {
  chrome?.kill();
  await Promise.all([site.stop(), hello.stop()]);
}

const medianOf = (key: string) => {
  const list = samples.get(key)!;
  return Object.fromEntries(Object.keys(list[0]!).map((field) => [field, median(list.map((s) => s[field as keyof Sample]))])) as Sample;
};

for (const preset of PRESETS) {
  const floor = medianOf(`${preset} hello-world`);
  console.log(`\n${preset}: medians of ${RUNS[preset]} runs (ratio to hello-world in brackets)`);
  console.log(`${"page".padEnd(NAME_WIDTH + 2)}perf   a11y   best   seo    FCP ms          LCP ms          TBT ms          CLS      SI ms`);
  for (const target of targets) {
    const m = medianOf(`${preset} ${target.name}`);
    const ratio = (field: keyof Sample) => (floor[field] ? ` (${(m[field] / floor[field]).toFixed(2)})` : "");
    const metric = (field: keyof Sample) => `${m[field].toFixed(0)}${ratio(field)}`.padEnd(16);
    console.log(
      `${target.name.padEnd(NAME_WIDTH)} ${m.performance.toFixed(2).padStart(5)}  ${m.accessibility.toFixed(2).padStart(5)}  ${m["best-practices"].toFixed(2).padStart(5)}  ${m.seo.toFixed(2).padStart(5)}  ` +
        `${metric("FCP")}${metric("LCP")}${metric("TBT")}${m.CLS.toFixed(3).padEnd(9)}${metric("SI")}`,
    );
  }
  console.log(`\n${preset}: main-thread work, medians in ms (ratio to hello-world in brackets)`);
  console.log(
    `${"page".padEnd(NAME_WIDTH)}${Object.keys(WORK)
      .map((name) => name.padEnd(14))
      .join("")}`,
  );
  for (const target of targets) {
    const m = medianOf(`${preset} ${target.name}`);
    const cell = (field: keyof typeof WORK) =>
      `${m[field].toFixed(0)}${floor[field] >= 1 && target.name !== "hello-world" ? ` (${(m[field] / floor[field]).toFixed(2)})` : ""}`.padEnd(
        14,
      );
    console.log(`${target.name.padEnd(NAME_WIDTH)}${(Object.keys(WORK) as (keyof typeof WORK)[]).map(cell).join("")}`);
  }
  console.log(`\n${preset}: each run against the hello-world run beside it, medians of ${RUNS[preset]} (range)`);
  console.log(
    `${"page".padEnd(NAME_WIDTH)}TBT ratio             perf difference       TBT from the document's own tasks, ms (hello-world's)`,
  );
  const helloRuns = samples.get(`${preset} hello-world`)!;
  const perRun = new Map<
    string,
    { tbtRatio: number; performanceDifference: number; unheld: { pairs: number; tbtRatio: number; performanceDifference: number } }
  >();
  for (const target of targets.slice(1)) {
    const runs = samples.get(`${preset} ${target.name}`)!;
    // Each run with the hello-world run beside it; and the pairs in which neither load's first paint
    // was held back (stalledPaint).
    const pairs = runs.map((run, i) => ({ run, hello: helloRuns[i]! }));
    const unheldPairs = pairs.filter((pair) => !pair.run.stalled && !pair.hello.stalled);
    const tbtRatio = ({ run, hello }: { run: Sample; hello: Sample }) => run.TBT / Math.max(hello.TBT, 1);
    const performanceDifference = ({ run, hello }: { run: Sample; hello: Sample }) => run.performance - hello.performance;
    const paired = (of: (pair: { run: Sample; hello: Sample }) => number) => medianWithRange(pairs.map(of));
    const tbt = paired(tbtRatio);
    const performance = paired(performanceDifference);
    const unheld = {
      pairs: unheldPairs.length,
      tbtRatio: median(unheldPairs.map(tbtRatio)),
      performanceDifference: median(unheldPairs.map(performanceDifference)),
    };
    perRun.set(target.name, { tbtRatio: tbt.median, performanceDifference: performance.median, unheld });
    console.log(
      `${target.name.padEnd(NAME_WIDTH)}${tbt.text}${performance.text}` +
        `${median(runs.map((run) => run.documentTBT)).toFixed(0)} (${median(helloRuns.map((run) => run.documentTBT)).toFixed(0)})`,
    );
    const held = runs.filter((run) => run.stalled).length;
    const helloHeld = helloRuns.filter((run) => run.stalled).length;
    console.log(
      `${"".padEnd(NAME_WIDTH)}first paint held back past load in ${held} of ${runs.length} runs (hello-world: ${helloHeld}); ` +
        (unheld.pairs
          ? `the ${unheld.pairs} pairs with neither held: TBT ${unheld.tbtRatio.toFixed(2)} x, performance ${unheld.performanceDifference.toFixed(2)}`
          : "no pair with neither held back"),
    );
  }
  // Issue 29's mobile targets are for the preset's own CPU slowdown; at another one only issue 41's
  // (below) apply, and judging both printed a verdict for a phone nobody asked about.
  const slowedPhone = preset === "mobile" && CPU_SLOWDOWN !== undefined;
  if (slowedPhone)
    console.log(`\n${preset}: the other categories and CLS (issue 29's performance and TBT targets are for the default slowdown)`);
  for (const target of targets.slice(1)) {
    const m = medianOf(`${preset} ${target.name}`);
    const checks = [
      ...CATEGORIES.slice(1).map((c) => [`${c} 100`, m[c] === 1] as const),
      ...(preset === "desktop" ? [["performance 100", m.performance === 1] as const] : []),
      ...(preset === "mobile" && !slowedPhone
        ? [
            ["performance within 0.01 of hello-world", m.performance >= floor.performance - 0.01] as const,
            [`TBT <= ${TBT_TARGET} x hello-world`, m.TBT <= TBT_TARGET * Math.max(floor.TBT, 1)] as const,
          ]
        : []),
      ["CLS 0", m.CLS === 0] as const,
    ];
    const missed = checks.filter(([, ok]) => !ok).map(([name]) => name);
    console.log(`  ${target.name}: ${missed.length ? `MISSED ${missed.join(", ")}` : "all targets met"}`);
  }
  if (preset === "mobile" && CPU_SLOWDOWN) {
    console.log(
      `\nmobile, CPU slowed ${CPU_SLOWDOWN} x: issue 41's targets on the per-run medians (performance within ${SLOW_PHONE.performanceWithin}, TBT at most ${SLOW_PHONE.tbtRatio} x)`,
    );
    const verdict = ({ tbtRatio, performanceDifference }: { tbtRatio: number; performanceDifference: number }) => {
      const missed = [
        ...(performanceDifference < -SLOW_PHONE.performanceWithin - 1e-9 ? [`performance ${performanceDifference.toFixed(2)}`] : []),
        ...(tbtRatio > SLOW_PHONE.tbtRatio ? [`TBT ${tbtRatio.toFixed(2)} x`] : []),
      ];
      return missed.length ? `MISSED ${missed.join(", ")}` : "met";
    };
    for (const target of targets.slice(1)) {
      const figures = perRun.get(target.name)!;
      const unheld = figures.unheld.pairs
        ? `the ${figures.unheld.pairs} pairs with neither held back: ${verdict(figures.unheld)}`
        : "no pair with neither held back";
      console.log(`  ${target.name}: all runs ${verdict(figures)}; ${unheld}`);
    }
  }
  if (AGAINST) {
    console.log(`\n${preset}: each page here against the same page at ${AGAINST}, round by round: medians of ${RUNS[preset]} (range)`);
    console.log(`${"page".padEnd(NAME_WIDTH)}TBT ratio             perf difference       style & layout ratio  held back here, there`);
    for (const [here, there] of comparedPages) {
      const thereRuns = samples.get(`${preset} ${there.name}`)!;
      const rounds = samples.get(`${preset} ${here.name}`)!.map((run, i) => ({ here: run, there: thereRuns[i]! }));
      type Round = (typeof rounds)[number];
      const tbtRatio = ({ here, there }: Round) => here.TBT / Math.max(there.TBT, 1);
      const performanceDifference = ({ here, there }: Round) => here.performance - there.performance;
      const styleRatio = ({ here, there }: Round) => here.style / Math.max(there.style, 1);
      const held = (side: "here" | "there") => rounds.filter((round) => round[side].stalled).length;
      console.log(
        `${here.name.padEnd(NAME_WIDTH)}${medianWithRange(rounds.map(tbtRatio)).text}${medianWithRange(rounds.map(performanceDifference)).text}` +
          `${medianWithRange(rounds.map(styleRatio)).text}${held("here")}, ${held("there")} of ${rounds.length}`,
      );
      const unheld = rounds.filter((round) => !round.here.stalled && !round.there.stalled);
      console.log(
        `${"".padEnd(NAME_WIDTH)}` +
          (unheld.length
            ? `the ${unheld.length} rounds with neither held back: TBT ${median(unheld.map(tbtRatio)).toFixed(2)} x, performance ${median(unheld.map(performanceDifference)).toFixed(2)}`
            : "no round with neither held back"),
      );
    }
  }
}
console.log(`\nFull reports: ${resultsDir}`);
console.log(`The whole benchmark, builds included, took ${((performance.now() - started) / 60_000).toFixed(1)} minutes.`);
