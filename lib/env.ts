import path from "node:path";
import { z } from "zod";

/** Where the embedded database lives when DATABASE_URL is not set (ignored by git). */
const DEFAULT_DATABASE_URL = "file:./prisma/data/waitlist.db";

/** The public address of the site, for canonical links, Open Graph and the sitemap. */
const DEFAULT_SITE_URL = "http://localhost:3000";

/** Addresses of a libSQL server or Turso database (the libSQL adapter); `file:` is the embedded file. */
const SERVER_URL = /^(libsql|https?|wss?):\/\//i;

/** A whole number from an environment string, with `min` as its floor. */
function wholeNumber(min: number) {
  return z.coerce.number({ error: "must be a whole number" }).int({ error: "must be a whole number" }).min(min);
}

/** Domains separated by commas ("a.example, b.example"), lower-cased; unset: none. */
function domainList() {
  return z
    .string()
    .default("")
    .transform((list) =>
      list
        .split(",")
        .map((domain) => domain.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((domains) => domains.every((domain) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)), {
      error: "must be domains separated by commas, such as mailinator.com,example.org",
    });
}

const envSchema = z
  .object({
    SITE_URL: z.url({ error: "must be an absolute URL such as https://fieldcrew.app" }).default(DEFAULT_SITE_URL),
    /**
     * More origins the console's and the visitor's forms may be posted from, beside SITE_URL's
     * (lib/security/origin.ts), separated by commas: a second address the same deployment answers at.
     */
    WAITLIST_EXTRA_ORIGINS: z
      .string()
      .default("")
      .transform((list) =>
        list
          .split(",")
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .refine((origins) => origins.every((origin) => URL.canParse(origin) && new URL(origin).origin === origin.toLowerCase()), {
        error: "must be origins separated by commas, such as https://www.fieldcrew.app (scheme and host, no path)",
      }),
    DATABASE_URL: z
      .string()
      .trim()
      .min(1)
      .default(DEFAULT_DATABASE_URL)
      .refine((url) => url.startsWith("file:") || SERVER_URL.test(url), {
        message:
          "must be a SQLite file such as file:./prisma/data/waitlist.db, or a libSQL/Turso address such as libsql://waitlist-acme.turso.io",
      }),
    /** The token a Turso or libSQL server asks for; not used with a file. */
    DATABASE_AUTH_TOKEN: z.string().min(1).optional(),
    /**
     * Which driver opens a `file:` database: better-sqlite3 (the default) or libSQL's
     * embedded engine (the tests run both). A libsql:// or https:// address always uses libSQL.
     */
    DATABASE_DRIVER: z.enum(["better-sqlite3", "libsql"], { error: "must be better-sqlite3 or libsql" }).optional(),
    /**
     * Signs security questions and visitors' links. When unset, the embedded database's secret
     * file is used (made on first start, lib/security/secret.ts); required with a libSQL server.
     */
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
    /** Signs the webhook's posts the Standard Webhooks way; required with WAITLIST_WEBHOOK_URL. */
    WAITLIST_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, {
        error:
          'must be a Standard Webhooks secret: whsec_ and at least 24 random bytes in base64 (try: echo "whsec_$(openssl rand -base64 32)")',
      })
      .optional(),
    /** Waits before each retry of a failed delivery, in seconds; their count is the number of retries. */
    WAITLIST_DELIVERY_RETRY_SECONDS: z
      .string()
      .default("1,5,30")
      .transform((list) => list.split(",").map((part) => Number(part.trim())))
      .refine((delays) => delays.every((delay) => Number.isFinite(delay) && delay > 0), {
        error: "must be positive numbers of seconds separated by commas, such as 1,5,30",
      }),
    /** How long an instance may hold a delivery before the others take it over (it died, say). */
    WAITLIST_DELIVERY_LEASE_SECONDS: wholeNumber(1).default(60),
    /** This instance's name in leases and logs; by default host name and process id. */
    INSTANCE_ID: z.string().trim().min(1).max(100).optional(),
    /** Where confirmation emails are sent through (docs/operations.md); unset: none are sent. */
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL, such as smtp://user:pass@mail.example.com:587" })
      .optional(),
    /**
     * Lets the site send SMTP_URL's user and password over a connection without TLS (a relay on
     * the same host, say). Off: with credentials, TLS is required (smtps://, or STARTTLS enforced).
     */
    SMTP_ALLOW_PLAINTEXT_AUTH: z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" })
      .default("false")
      .transform((value) => value === "true" || value === "1"),
    /** The sender of confirmation emails; required with SMTP_URL. */
    MAIL_FROM: z.string().trim().min(3).optional(),
    /** Confirmation emails the whole site sends in any hour, across all instances; more wait. */
    MAIL_MAX_PER_HOUR: wholeNumber(1).default(200),
    MAIL_MAX_PER_DOMAIN_PER_HOUR: wholeNumber(1).default(20),
    /** SMTP connections kept open to the mail server at once: how many messages are on their way together. */
    MAIL_MAX_CONNECTIONS: wholeNumber(1).default(10),
    /** DKIM (lib/mail/dkim.ts): the selector the key's public record is published under. */
    MAIL_DKIM_SELECTOR: z
      .string()
      .trim()
      .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i, { error: "must be one DNS label, such as fc2026" })
      .optional(),
    /** The domain the signature is for; MAIL_FROM's by default. */
    MAIL_DKIM_DOMAIN: z.string().trim().toLowerCase().optional(),
    /** The private key in PEM form (its line breaks may be written \n), or the file that holds it. */
    MAIL_DKIM_PRIVATE_KEY: z.string().optional(),
    MAIL_DKIM_PRIVATE_KEY_FILE: z.string().trim().optional(),
    /**
     * Bounces (docs/operations.md, "Bounces"): where reports of undelivered mail come back. Each
     * message's envelope sender is this mailbox with a tag of its own (lib/mail/bounce-address.ts,
     * which also says what the mailbox's name may be; the server checks it at start).
     */
    MAIL_BOUNCE_ADDRESS: z.email({ error: "must be an address, such as bounces@fieldcrew.app" }).optional(),
    /** Whom /.well-known/security.txt tells to report a security problem: a mailto: or https: address. */
    SECURITY_CONTACT: z
      .string()
      .trim()
      .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, {
        error: "must be a mailto: or https: address, such as mailto:security@fieldcrew.app",
      })
      .default("mailto:hello@fieldcrew.app"),
    /** The secret a mail server sends bounces to POST /api/mail/bounces with; unset: none are taken. */
    MAIL_BOUNCE_SECRET: z.string().min(32, { error: "must be at least 32 characters (openssl rand -hex 32)" }).optional(),
    /** Email domains refused beside the throwaway list, comma-separated (docs/operations.md). */
    WAITLIST_EMAIL_DOMAINS_DENY: domainList(),
    /** Email domains taken even when the throwaway list has them, comma-separated. */
    WAITLIST_EMAIL_DOMAINS_ALLOW: domainList(),
    /** Requests this instance handles at once; more are answered 503 at once (health checks excepted). */
    WAITLIST_MAX_IN_FLIGHT: wholeNumber(1).default(256),
    /**
     * How far (per cent) V8 may let the heap grow past what is live before collecting it; 0: V8's own
     * choice, which lets a busy server's heap reach about three times what is live (docs/performance.md).
     */
    WAITLIST_HEAP_GROWING_PERCENT: wholeNumber(0).default(50),
    /** A database query (or transaction) that holds the database this long (ms) is logged as slow_query; 0 logs every one. Unset: lib/db's SLOW_QUERY_MS. */
    WAITLIST_SLOW_QUERY_MS: wholeNumber(0).optional(),
    /** Sign-ups (and rate-limit counts) that may wait to be written at once; more are answered 503 at once. */
    WAITLIST_MAX_PENDING_WRITES: wholeNumber(1).default(512),
    /** How long a sign-up may wait for its turn to be written before it is answered 503 (nothing stored). */
    WAITLIST_REQUEST_DEADLINE_MS: wholeNumber(100).default(8_000),
    /**
     * Entries older than this many days are removed, with their deliveries, in the background
     * (lib/waitlist/retention.ts); the privacy notice says so. Unset: entries are kept.
     */
    WAITLIST_RETENTION_DAYS: wholeNumber(1).optional(),
    /**
     * Visit counting (lib/analytics/): the most events (page views, dialog openings, speed
     * measurements) one client address adds to a UTC day's figures; the rest are accepted and not counted.
     */
    WAITLIST_VISIT_EVENTS_PER_ADDRESS: wholeNumber(1).default(2_000),
    /**
     * Scheduled backups of the embedded database (lib/backup/schedule.ts): a folder for them, how
     * often, how many to keep. Unset: no scheduled backups (npm run waitlist -- backup FILE still works).
     */
    WAITLIST_BACKUP_DIR: z.string().trim().min(1).optional(),
    WAITLIST_BACKUP_INTERVAL_MINUTES: wholeNumber(1).default(24 * 60),
    WAITLIST_BACKUP_KEEP: wholeNumber(1).default(7),
  })
  .refine((env) => !env.WAITLIST_WEBHOOK_URL || env.WAITLIST_WEBHOOK_SECRET, {
    path: ["WAITLIST_WEBHOOK_SECRET"],
    error: "must be set when WAITLIST_WEBHOOK_URL is, so the receiver can check that posts come from the site",
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM, {
    path: ["MAIL_FROM"],
    error: 'must be set when SMTP_URL is: the sender of confirmation emails, such as "FieldCrew <hello@fieldcrew.app>"',
  })
  .refine((env) => !env.MAIL_BOUNCE_SECRET || env.MAIL_BOUNCE_ADDRESS, {
    path: ["MAIL_BOUNCE_ADDRESS"],
    error: "must be set when MAIL_BOUNCE_SECRET is: a report counts only when it comes back to a message's own bounce address",
  })
  .refine((env) => !(env.WAITLIST_BACKUP_DIR && SERVER_URL.test(env.DATABASE_URL)), {
    path: ["WAITLIST_BACKUP_DIR"],
    error: "backs up the embedded SQLite file only; a libSQL/Turso server keeps its own backups (point-in-time restore)",
  })
  .refine((env) => !(env.DATABASE_DRIVER === "better-sqlite3" && SERVER_URL.test(env.DATABASE_URL)), {
    path: ["DATABASE_DRIVER"],
    error: "better-sqlite3 opens files only; a libsql:// or https:// DATABASE_URL needs libsql",
  });

export type Env = z.infer<typeof envSchema>;

const ENV_NAMES = [
  "SITE_URL",
  "DATABASE_URL",
  "DATABASE_AUTH_TOKEN",
  "DATABASE_DRIVER",
  "WAITLIST_SECRET",
  "WAITLIST_MIN_SUBMIT_MS",
  "WAITLIST_RATE_LIMIT_MAX",
  "WAITLIST_RATE_LIMIT_WINDOW_SECONDS",
  "TRUST_PROXY_HOPS",
  "WAITLIST_EXTRA_ORIGINS",
  "WAITLIST_WEBHOOK_URL",
  "WAITLIST_WEBHOOK_SECRET",
  "WAITLIST_DELIVERY_RETRY_SECONDS",
  "WAITLIST_DELIVERY_LEASE_SECONDS",
  "INSTANCE_ID",
  "SMTP_URL",
  "SMTP_ALLOW_PLAINTEXT_AUTH",
  "MAIL_FROM",
  "MAIL_MAX_PER_HOUR",
  "MAIL_MAX_PER_DOMAIN_PER_HOUR",
  "MAIL_MAX_CONNECTIONS",
  "MAIL_DKIM_SELECTOR",
  "MAIL_DKIM_DOMAIN",
  "MAIL_DKIM_PRIVATE_KEY",
  "MAIL_DKIM_PRIVATE_KEY_FILE",
  "MAIL_BOUNCE_ADDRESS",
  "MAIL_BOUNCE_SECRET",
  "SECURITY_CONTACT",
  "WAITLIST_EMAIL_DOMAINS_DENY",
  "WAITLIST_EMAIL_DOMAINS_ALLOW",
  "WAITLIST_MAX_IN_FLIGHT",
  "WAITLIST_HEAP_GROWING_PERCENT",
  "WAITLIST_SLOW_QUERY_MS",
  "WAITLIST_MAX_PENDING_WRITES",
  "WAITLIST_REQUEST_DEADLINE_MS",
  "WAITLIST_RETENTION_DAYS",
  "WAITLIST_VISIT_EVENTS_PER_ADDRESS",
  "WAITLIST_BACKUP_DIR",
  "WAITLIST_BACKUP_INTERVAL_MINUTES",
  "WAITLIST_BACKUP_KEEP",
] as const satisfies readonly (keyof Env)[];

/**
 * Validates the environment once, failing with the names of the bad variables
 * rather than letting a typo surface later as a confusing database error.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty value in .env means "not set", not "the empty path".
  const values = Object.fromEntries(ENV_NAMES.map((name) => [name, source[name] || undefined]));
  const result = envSchema.safeParse(values);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n");
    throw new InvalidEnvironment(`Invalid environment configuration:\n${problems}`);
  }
  return result.data;
}

/** The environment's problems, each variable by name with what it must be. */
class InvalidEnvironment extends Error {}

/**
 * For a program's start (the server, the migrations): the environment, or its problems said once,
 * without a stack trace, and exit code 1. A typo in .env is the user's to fix, not a crash.
 */
export function parseEnvOrExit(report: (message: string) => void = (message) => console.error(message)): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (!(error instanceof InvalidEnvironment)) throw error;
    report(error.message);
    process.exit(1);
  }
}

export type DatabaseSettings =
  | { driver: "better-sqlite3"; file: string }
  /** `url` is a server's address, or `file:` with an absolute path for libSQL's embedded engine. */
  | { driver: "libsql"; url: string; authToken?: string; file?: string };

/** Which driver opens which database, from DATABASE_URL, DATABASE_DRIVER and DATABASE_AUTH_TOKEN. */
export function databaseSettings(
  env: Pick<Env, "DATABASE_URL" | "DATABASE_DRIVER" | "DATABASE_AUTH_TOKEN"> = parseEnv(),
): DatabaseSettings {
  const url = env.DATABASE_URL;
  if (SERVER_URL.test(url)) return { driver: "libsql", url, authToken: env.DATABASE_AUTH_TOKEN };
  const file = databaseFileFromUrl(url);
  return env.DATABASE_DRIVER === "libsql" ? { driver: "libsql", url: `file:${file}`, file } : { driver: "better-sqlite3", file };
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
