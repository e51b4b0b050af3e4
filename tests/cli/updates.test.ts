/**
 * `updates` (lib/cli/updates.ts): the console's updates from the shell, on a real migrated database
 * filled through the site's own store. --help lists the subcommands; preview counts and shows;
 * send asks first, then queues once, audited as the shell; list shows the progress bar; pause,
 * resume and cancel change it; bad input is refused with a clear error and nothing is queued.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { cliOnTestDatabase } from "../support/cli";

const { waitlist: run, seed, workDir } = cliOnTestDatabase();
/** The command with mail on, as a site that sends updates has it (nothing is sent from the shell itself). */
const MAIL = { SMTP_URL: "smtp://127.0.0.1:2599", MAIL_FROM: "FieldCrew <hello@fieldcrew.app>" };
const waitlist = (args: string[], options: { input?: string } = {}) => run(args, { ...options, env: MAIL });

describe("npm run waitlist -- updates", () => {
  it("--help lists its subcommands", async () => {
    const run = await waitlist(["updates", "--help"]);
    expect(run.status).toBe(0);
    for (const sub of ["list", "preview", "send", "pause|resume|cancel"]) expect(run.stdout).toContain(`  ${sub}`);
    expect((await waitlist(["updates"])).status).toBe(2);
    expect(await waitlist(["updates", "shout"])).toMatchObject({ status: 2 });
  });

  it("previews, sends after a yes, lists the progress, and pauses, resumes and cancels", async () => {
    await seed(
      { business_type: "plumbing", company_name: "Pipe Co", utm_campaign: "cli" },
      { business_type: "plumbing", utm_campaign: "cli" },
      { business_type: "hvac", utm_campaign: "cli" },
    );
    const bodyFile = path.join(workDir, "update.txt");
    writeFileSync(bodyFile, "Hello {{name}},\n\nPlumbing scheduling is ready for {{company}}.\n");
    const writing = ["--subject", "Plumbing is ready", "--body-file", bodyFile, "--type", "plumbing", "--campaign", "cli"];

    const preview = await waitlist(["updates", "preview", ...writing]);
    expect(preview.status).toBe(0);
    expect(preview.stdout).toMatch(
      /^2 entries get it\. As #\d+, .+ \(address not confirmed yet\), gets it:\n\nSubject: Plumbing is ready\n\nHello,\n\nPlumbing scheduling is ready for your company\./,
    );

    const declined = await waitlist(["updates", "send", ...writing], { input: "no\n" });
    expect(declined).toMatchObject({ status: 1 });
    expect(declined.stdout).toContain("Not sent.");
    expect(await getDatabase().mailUpdate.count()).toBe(0);

    const sent = await waitlist(["updates", "send", ...writing], { input: "yes\n" });
    expect(sent.status).toBe(0);
    const [id] = /#(\d+) is queued for 2 entries/.exec(sent.stdout)!.slice(1);
    expect(await getDatabase().outboxMessage.count({ where: { updateId: Number(id) } })).toBe(2);
    const audit = await getDatabase().operatorAction.findFirstOrThrow({ where: { action: "update_sent" } });
    expect(audit.actor).toMatch(/^shell \(/);

    const listed = await waitlist(["updates", "list"]);
    expect(listed.stdout).toContain(`#${id} Plumbing is ready  (sending)`);
    expect(listed.stdout).toContain("to type plumbing, campaign cli;");
    expect(listed.stdout).toContain(
      "[....................] 0%  queued 2 · sent 0 · waiting 2 · bounced 0 · unsubscribed since 0 · failed 0",
    );

    expect(await waitlist(["updates", "pause", "--id", id!])).toMatchObject({ status: 0, stdout: `Update #${id} is paused.\n` });
    expect(await waitlist(["updates", "pause", "--id", id!])).toMatchObject({ status: 1 });
    expect(await waitlist(["updates", "resume", "--id", id!])).toMatchObject({ status: 0, stdout: `Update #${id} is resumed.\n` });
    expect(await waitlist(["updates", "cancel", "--id", id!])).toMatchObject({
      status: 0,
      stdout: `Update #${id} is cancelled: what was not sent stays unsent.\n`,
    });
    expect((await waitlist(["updates", "list"])).stdout).toContain("(cancelled)");
    expect(await waitlist(["updates", "pause", "--id", "999"])).toMatchObject({ status: 1, stderr: "No update #999.\n" });
    expect(await waitlist(["updates", "pause"])).toMatchObject({ status: 2 });
  });

  it("refuses to send with mail off, and queues nothing", async () => {
    await seed({ utm_campaign: "off" });
    const before = await getDatabase().mailUpdate.count();
    const off = await run(["updates", "send", "--yes", "--subject", "News", "--body", "Hi", "--campaign", "off"], {
      env: { SMTP_URL: undefined, MAIL_FROM: undefined },
    });
    expect(off).toMatchObject({ status: 1 });
    expect(off.stderr).toMatch(/^Mail is off on this site \(SMTP_URL and MAIL_FROM are not set\)/);
    expect(await getDatabase().mailUpdate.count()).toBe(before);
  });

  it("refuses bad input with a clear error, and queues nothing", async () => {
    await seed({ utm_campaign: "bad" });
    const before = await getDatabase().mailUpdate.count();
    const cases: [string[], RegExp][] = [
      [["--subject", "", "--body", "Hi"], /Write a subject\./],
      [["--subject", "News\r\nBcc: all@example.com", "--body", "Hi"], /The subject is one line\./],
      [["--subject", "News", "--body", "<b>Big</b> news"], /plain text/],
      [["--subject", "News", "--body", "Hi {{first}}"], /Use only \{\{name\}\} and \{\{company\}\}/],
      [["--subject", "News", "--body", "Hi", "--type", "roofing"], /type: Choose a business type/],
      [["--subject", "News", "--body", "Hi", "--body-file", "x.txt"], /Give the text once/],
    ];
    for (const [args, message] of cases) {
      const run = await waitlist(["updates", "send", "--yes", ...args]);
      expect(run.status, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    const nobody = await waitlist(["updates", "send", "--yes", "--subject", "News", "--body", "Hi", "--campaign", "nobody-here"]);
    expect(nobody).toMatchObject({ status: 1 });
    expect(nobody.stderr).toMatch(/^Nobody on the list is in this segment/);
    expect(await getDatabase().mailUpdate.count()).toBe(before);
  });
});
