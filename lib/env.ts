import path from "node:path";
import { z } from "zod";

/** Where the embedded database lives when DATABASE_URL is not set (ignored by git). */
export const DEFAULT_DATABASE_URL = "file:./prisma/data/waitlist.db";

/** The public address of the site, for canonical links, Open Graph and the sitemap. */
export const DEFAULT_SITE_URL = "http://localhost:3000";

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
});

export type Env = z.infer<typeof envSchema>;

/**
 * Validates the environment once, failing with the names of the bad variables
 * rather than letting a typo surface later as a confusing database error.
 */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse({
    // An empty value in .env means "not set", not "the empty path".
    DATABASE_URL: source.DATABASE_URL || undefined,
    SITE_URL: source.SITE_URL || undefined,
  });
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
