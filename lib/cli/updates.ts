/**
 * `updates`: the console's updates page from the shell, for scripted use (docs/operations.md,
 * "Updates to the list"): list them with their progress, preview one for a segment, send it,
 * pause, resume or cancel it. ./commands.ts dispatches to it.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { shellActor } from "../audit/trail";
import type { Database } from "../db";
import { parseEnv } from "../env";
import { senderFromEnv } from "../mail/smtp";
import { count, terminalSafe, utcMinute } from "../console/format";
import { SEGMENT_KEYS } from "../updates/segment";
import {
  changeUpdate,
  countRecipients,
  listUpdates,
  MAIL_OFF,
  parseUpdate,
  previewUpdate,
  sendUpdate,
  statusWord,
  UpdateRefused,
  UPDATE_ACTIONS,
  type UpdateAction,
  type UpdateInput,
  type UpdateProgress,
} from "../updates/updates";
import { readAnswer, UsageError, write, type CliIo } from "./io";

export const UPDATES_USAGE = `  updates  Updates to the list (an email to everyone, or to a segment, once to each entry)
             list               every update, newest first, with its progress
             preview            how many get it, and the text as the newest of them gets it
             send               send it (asks to confirm unless --yes)
             pause|resume|cancel --id N   stop sending for now, go on, or give up what is not sent
           preview and send take:
             --subject TEXT     one line; {{name}} and {{company}} are filled in
             --body TEXT | --body-file FILE   plain text (- reads standard input)
             --type --size --state --source --campaign --confirmed yes|no --from DAY --to DAY
                                the segment (as the console's; none: everyone on the list)
`;

const WRITING = {
  subject: { type: "string" },
  body: { type: "string" },
  "body-file": { type: "string" },
  ...Object.fromEntries(SEGMENT_KEYS.map((key) => [key, { type: "string" }])),
} as const;

const BAR_WIDTH = 20;

/** A text progress bar: [########............] 40%. */
function bar(update: UpdateProgress): string {
  const share = update.queued === 0 ? 0 : update.sent / update.queued;
  const filled = Math.round(share * BAR_WIDTH);
  return `[${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}%`;
}

function describe(update: UpdateProgress): string {
  return [
    `#${update.id} ${terminalSafe(update.subject)}  (${statusWord(update)})`,
    `  to ${terminalSafe(update.segment)}; by ${terminalSafe(update.createdBy)}, ${utcMinute(update.createdAt)} UTC`,
    `  ${bar(update)}  queued ${count(update.queued)} · sent ${count(update.sent)} · waiting ${count(update.waiting)} · bounced ${count(update.bounced)} · unsubscribed since ${count(update.unsubscribed)} · failed ${count(update.failed)}`,
  ].join("\n");
}

async function readInput(args: string[], io: CliIo): Promise<UpdateInput> {
  const { values } = parseArgs({ args, strict: true, options: WRITING });
  if (values.body !== undefined && values["body-file"] !== undefined) throw new UsageError("Give the text once: --body or --body-file.");
  let body = values.body;
  if (values["body-file"] !== undefined) {
    const file = values["body-file"];
    if (file === "-") {
      body = "";
      for await (const chunk of io.stdin) body += String(chunk);
    } else {
      try {
        body = readFileSync(file, "utf8");
      } catch {
        throw new UsageError(`--body-file: cannot read ${file}.`);
      }
    }
  }
  const segment = Object.fromEntries(SEGMENT_KEYS.map((key) => [key, (values as Record<string, string | undefined>)[key]]));
  const parsed = parseUpdate({ ...segment, body: body ?? "", subject: values.subject ?? "" });
  if ("problems" in parsed) throw new UsageError(Object.values(parsed.problems).join("\n"));
  return parsed.input;
}

async function preview(db: Database, input: UpdateInput, io: CliIo): Promise<number> {
  const [n, shown] = await Promise.all([countRecipients(db, input.segment), previewUpdate(db, input)]);
  if (n === 0 || !shown) {
    await write(io.stderr, "Nobody on the list is in this segment (or everyone in it unsubscribed or bounced). Nothing to send.\n");
    return 1;
  }
  await write(
    io.stdout,
    `${count(n)} ${n === 1 ? "entry gets" : "entries get"} it. As #${shown.entryId}, ${terminalSafe(shown.company)}${shown.confirmed ? "" : " (address not confirmed yet)"}, gets it:\n\n` +
      `Subject: ${terminalSafe(shown.email.subject)}\n\n${shown.email.text.split("\n").map(terminalSafe).join("\n")}\n`,
  );
  return 0;
}

export async function updatesCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
    await write(io.stdout, `Usage: npm run waitlist -- updates <subcommand> [options]\n\n${UPDATES_USAGE}`);
    return sub === undefined ? 2 : 0;
  }
  if (sub === "list") {
    parseArgs({ args: rest, strict: true, options: {} });
    const updates = await listUpdates(db);
    await write(io.stdout, updates.length === 0 ? "No update has been sent yet.\n" : `${updates.map(describe).join("\n\n")}\n`);
    return 0;
  }
  if (sub === "preview") return preview(db, await readInput(rest, io), io);
  if (sub === "send") {
    const { values } = parseArgs({ args: rest, strict: false, options: { yes: { type: "boolean" } } });
    if (!senderFromEnv(parseEnv())) {
      await write(io.stderr, `${MAIL_OFF}\n`);
      return 1;
    }
    const input = await readInput(
      rest.filter((arg) => arg !== "--yes"),
      io,
    );
    if (!values.yes) {
      if ((await preview(db, input, io)) !== 0) return 1;
      await write(io.stdout, "\nSend it to them? Type yes to confirm: ");
      const answer = await readAnswer(io.stdin);
      if (answer !== "yes" && answer !== "y") {
        await write(io.stdout, "\nNot sent.\n");
        return 1;
      }
    }
    try {
      const sent = await sendUpdate(db, input, randomUUID(), shellActor());
      await write(
        io.stdout,
        `Update #${sent.id} is queued for ${count(sent.queued)} ${sent.queued === 1 ? "entry" : "entries"}; the running site sends it within the hourly caps. Progress: npm run waitlist -- updates list\n`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof UpdateRefused)) throw error;
      await write(io.stderr, `${error.message}\n`);
      return 1;
    }
  }
  if ((UPDATE_ACTIONS as readonly string[]).includes(sub)) {
    const { values } = parseArgs({ args: rest, strict: true, options: { id: { type: "string" } } });
    if (!values.id || !/^[1-9]\d*$/.test(values.id)) throw new UsageError(`${sub} needs --id N (an update's number, from updates list).`);
    const outcome = await changeUpdate(db, Number(values.id), sub as UpdateAction, shellActor());
    const done = { pause: "paused", resume: "resumed", cancel: "cancelled: what was not sent stays unsent" }[sub as UpdateAction];
    if (outcome === "missing") {
      await write(io.stderr, `No update #${values.id}.\n`);
      return 1;
    }
    if (outcome === "unchanged") {
      await write(io.stderr, `Update #${values.id} was not changed: it is not in a state to ${sub}.\n`);
      return 1;
    }
    await write(io.stdout, `Update #${values.id} is ${done}.\n`);
    return 0;
  }
  throw new UsageError(`Unknown updates subcommand "${sub}": list, preview, send, pause, resume or cancel.`);
}
