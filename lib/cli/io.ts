/** What every command of the operator tool (./commands.ts and each group's file) shares: its streams, its usage errors. */
import "server-only";
import { once } from "node:events";
import type { Readable, Writable } from "node:stream";

export type CliIo = {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
};

/** A mistake in the command line: usage is printed, exit code 2. */
export class UsageError extends Error {}

/** Writes, waiting for the stream to drain when it asks to (a 100,000-row export into a pipe). */
export function write(out: Writable, text: string): Promise<void> | void {
  if (!out.write(text)) return once(out, "drain").then(() => undefined);
}

/** The first line on standard input, or "" when it ends (no terminal, nothing piped). */
export async function readAnswer(stdin: Readable): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0]!.trim().toLowerCase();
}
