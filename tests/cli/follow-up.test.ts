/**
 * `queue` and `contact`: the follow-up queue from the shell (lib/cli/follow-up.ts). Against a real migrated SQLite file filled through the
 * site's own store; each command line run in this process, or as the real command
 * (`node scripts/waitlist.mjs`) where only a process shows it (tests/support/cli.ts).
 */
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";

import { cliOnTestDatabase } from "../support/cli";

const { waitlist, seed } = cliOnTestDatabase();

describe("npm run waitlist: the follow-up queue", () => {
  it("lists who is due or overdue, oldest deadline first, and contact marks one as the shell's operator", async () => {
    await seed({ contact_name: "Fresh Fay" }, { contact_name: "Late Lee", daysAgo: 3 }, { contact_name: "Soon Sam", daysAgo: 1.9 });
    const queue = await waitlist(["queue"]);
    expect(queue.status).toBe(0);
    expect(queue.stdout).toContain("1 overdue · 1 due within 6 hours · 3 awaiting contact");
    expect(queue.stdout.indexOf("Late Lee")).toBeLessThan(queue.stdout.indexOf("Soon Sam"));
    expect(queue.stdout).not.toContain("Fresh Fay");
    expect(queue.stdout).toMatch(/\d+ h \d+ min overdue/);
    expect((await waitlist(["queue", "--all"])).stdout).toContain("Fresh Fay");

    const [late] = await getDatabase().waitlistEntry.findMany({ where: { contactName: "Late Lee" } });
    const contact = await waitlist(["contact", String(late!.id), "--note", "Called, booked a demo"]);
    expect(contact.stdout).toContain(`Entry ${late!.id} is marked contacted, with your note.`);
    expect(contact.status).toBe(0);
    const stored = await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: late!.id } });
    expect(stored.followUpState).toBe("contacted");
    expect(stored.stateChangedBy).toMatch(/^shell \(/);
    const audit = await getDatabase().operatorAction.findMany({ where: { entryId: late!.id } });
    expect(audit).toMatchObject([{ action: "follow_up_changed", actor: expect.stringMatching(/^shell \(/) }]);
    expect(await getDatabase().followUpEvent.findMany({ where: { entryId: late!.id } })).toMatchObject([{ note: "Called, booked a demo" }]);
    expect((await waitlist(["queue"])).stdout).toContain("0 overdue");

    // Again: already contacted; an unknown id and a bad one are refused clearly.
    expect((await waitlist(["contact", String(late!.id)])).stdout).toContain("was already contacted");
    const missing = await waitlist(["contact", "987654"]);
    expect([missing.status, missing.stderr]).toEqual([1, "There is no entry 987654. Nothing changed.\n"]);
    const bad = await waitlist(["contact", "abc"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("contact needs one entry ID");
  });
});
