import path from "node:path";
import { z } from "zod";

/** Where the embedded database lives when DATABASE_URL is not set (ignored by git). */
export const DEFAULT_DATABASE_URL = "file:./prisma/data/waitlist.db";

/** The public address of the site, for canonical links, Open Graph and the sitemap. */
export const DEFAULT_SITE_URL = "http://localhost:3000";

/** A whole number from an environment string, with `min` as its floor. */
function wholeNumber(min: number) {
  return z.coerce.number({ error: "must be a whole number" }).int({ error: "must be a whole number" }).min(min);
}

const envSchema = z.object({
  SITE_URL: z.url({ error: "must be an absolute URL such as https://fieldcrew.app" }).default(DEFAULT_SITE_URL),
  DATABASE_URL: z
    .string()
    .trim()
    .min(1)
    .default(DEFAULT_DATABASE_URL)
    .refine((url) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(url), {
      message: "must be a SQLite file path such as file:./prisma/data/waitlist.db, not a server URL",
    }),
  /** Signs the security-question tokens. When unset, each start makes a random one. */
  WAITLIST_SECRET: z.string().min(32, { error: "must be at least 32 characters (try: openssl rand -hex 32)" }).optional(),
  /** The least time between showing the first question and a sign-up; faster is treated as a bot. */
  WAITLIST_MIN_SUBMIT_MS: wholeNumber(0).default(3_000),
  /** Sign-up attempts allowed per client address in each window. */
  WAITLIST_RATE_LIMIT_MAX: wholeNumber(1).default(5),
  WAITLIST_RATE_LIMIT_WINDOW_SECONDS: wholeNumber(1).default(600),
  /** How many reverse proxies in front of the site append to X-Forwarded-For (docs/security.md). */
  TRUST_PROXY_HOPS: wholeNumber(0).default(0),
  /** Where each new sign-up is posted (docs/operations.md); unset: no notifications. */
  WAITLIST_WEBHOOK_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  /** Signs the webhook's posts; required with WAITLIST_WEBHOOK_URL. */
  WAITLIST_WEBHOOK_SECRET: z.string().min(32, { error: "must be at least 32 characters (try: openssl rand -hex 32)" }).optional(),
}).refine((env) => !env.WAITLIST_WEBHOOK_URL || env.WAITLIST_WEBHOOK_SECRET, {
  path: ["WAITLIST_WEBHOOK_SECRET"],
  error: "must be set when WAITLIST_WEBHOOK_URL is, so the receiver can check that posts come from the site",
});

export type Env = z.infer<typeof envSchema>;

/**
 * Validates the environment once, failing with the names of the bad variables
 * rather than letting a typo surface later as a confusing database error.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty value in .env means "not set", not "the empty path".
  const values = Object.fromEntries(Object.keys(envSchema.shape).map((name) => [name, source[name] || undefined]));
  const result = envSchema.safeParse(values);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `  ${issue.path.join(".")}: ${issue.message}`)
      .join("\n");
    throw new Error(`Invalid environment configuration:\n${problems}`);
  }
  return result.data;
}

/**
 * The absolute path of the SQLite file a DATABASE_URL names. Relative paths are
 * taken from the working directory, which is the project root for every npm script,
 * so the app, the migrate step and Prisma's CLI all open the same file.
 */
export function databaseFileFromUrl(url: string, cwd: string = process.cwd()): string {
  const file = url.replace(/^file:/, "");
  return path.resolve(cwd, file);
}
