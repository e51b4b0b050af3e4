/**
 * `deliveries` and `redeliver` (lib/cli/deliveries.ts). Against a real migrated SQLite file filled through the
 * site's own store; each command line run in this process, or as the real command
 * (`node scripts/waitlist.mjs`) where only a process shows it (tests/support/cli.ts).
 */
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { signedUpOwing } from "../support/deliveries";
import { validSignup } from "../support/requests";

import { cliOnTestDatabase } from "../support/cli";

const { waitlist } = cliOnTestDatabase();

describe("npm run waitlist -- deliveries and redeliver", () => {
  /** Two sign-ups owing a webhook: one failed for good, one waiting for its next attempt. */
  async function seedDeliveries() {
    const database = getDatabase();
    for (const email of ["failed@example.com", "waiting@example.com"]) {
      const signup = waitlistSignupSchema.parse(
        validSignup({ email, company_name: email.startsWith("failed") ? "Failed Co" : "Waiting Co" }),
      );
      await signedUpOwing(signup, ["webhook"]);
    }
    const [failed, waiting] = await database.outboxMessage.findMany({ orderBy: { createdAt: "asc" }, include: { entry: true } });
    const [f, w] = failed!.entry.email.startsWith("failed") ? [failed!, waiting!] : [waiting!, failed!];
    await database.outboxMessage.update({ where: { id: f.id }, data: { status: "failed", attempts: 4, lastError: "HTTP 503" } });
    await database.outboxMessage.update({ where: { id: w.id }, data: { attempts: 1, lastError: "connection failed" } });
    return { failedId: f.id, waitingId: w.id };
  }

  it("counts deliveries by kind and status and lists the failed and pending ones with their sign-up", async () => {
    const { failedId, waitingId } = await seedDeliveries();
    const { status, stdout } = await waitlist(["deliveries"]);
    expect(status).toBe(0);
    expect(stdout.split("\n")[0]).toBe("webhook failed: 1 · webhook pending: 1");
    expect(stdout).toMatch(new RegExp(`${failedId}\\s+webhook\\s+failed\\s+4\\s+failed@example.com\\s+HTTP 503`));
    expect(stdout).toMatch(
      new RegExp(
        `${waitingId}\\s+webhook\\s+pending\\s+1\\s+waiting@example.com\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+connection failed`,
      ),
    );
    expect((await waitlist(["deliveries", "--status", "failed"])).stdout).not.toContain(waitingId);
  });

  it("sends a failed delivery again: pending, attempts from zero, due now", async () => {
    const { failedId } = await seedDeliveries();
    const run = await waitlist(["redeliver", "--id", failedId]);
    expect(run).toMatchObject({ status: 0, stdout: "1 delivery is pending again; the running site sends it within seconds.\n" });
    const row = await getDatabase().outboxMessage.findUniqueOrThrow({ where: { id: failedId } });
    expect(row).toMatchObject({ status: "pending", attempts: 0, leaseOwner: null });
    expect(row.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await waitlist(["redeliver", "--all-failed"])).toMatchObject({ status: 0, stderr: "No failed deliveries.\n" });
    expect(await waitlist(["redeliver", "--id", "no-such-id"])).toMatchObject({
      status: 1,
      stderr: "No failed delivery with the id no-such-id.\n",
    });
  });

  it("says so when nothing is owed yet", async () => {
    expect(await waitlist(["deliveries"])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^No deliveries yet\./) });
  });
});
