/**
 * The running site's visit counting, set up from the environment on first use: one counter
 * and one salt per process (lib/singleton.ts), shared by the route and the join form's action.
 */
import "server-only";
import { getDatabase } from "../db";
import { parseEnv } from "../env";
import { singleton } from "../singleton";
import { createVisitHandler, type VisitHandler } from "./handler";
import { VisitCounter } from "./record";
import { DailySalt } from "./visitor";

export function visitHandler(): VisitHandler {
  return singleton("visit handler", () => {
    const env = parseEnv();
    return createVisitHandler({
      siteUrl: env.SITE_URL,
      counter: new VisitCounter({
        database: getDatabase,
        capPerAddress: env.WAITLIST_VISIT_EVENTS_PER_ADDRESS,
        maxPending: env.WAITLIST_MAX_PENDING_WRITES,
      }),
      salt: new DailySalt(getDatabase),
    });
  });
}
