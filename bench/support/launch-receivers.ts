/**
 * Launch day's receivers for the benchmarks (BENCH_DELIVERIES=fast|slow|refusing): the SMTP server
 * and webhook receiver of ./receivers.mjs in a process of their own, and the environment that
 * points the site at them with the hourly mail caps raised as a launch would raise them.
 *
 * In production the mail server and the webhook's receiver run on other machines; here they share
 * the site's cores, so their process runs at the lowest priority (niceness 19): the CPU they take
 * is what the site leaves, and the benchmark measures the site's own cost of delivering, not the
 * receivers' cost of receiving. Before, in a thread of the benchmark at normal priority, they kept
 * the database thread waiting for a CPU mid-statement while deliveries drained (docs/performance.md).
 */
import { fork } from "node:child_process";
import { setPriority } from "node:os";

export const MAIL_MODES = ["fast", "slow", "refusing"] as const;
type MailMode = (typeof MAIL_MODES)[number];

/** What the receivers accepted: per delivery id how many times, when the last arrived, how many refused once. */
type ReceiverReport = { accepted: [string, number][]; lastArrival: number; refused: number };

type LaunchReceivers = {
  /** The site's environment for them: SMTP_URL, the webhook, the raised caps. */
  env: Record<string, string>;
  report(): Promise<ReceiverReport>;
  close(): Promise<void>;
};

const WEBHOOK_SECRET = `whsec_${Buffer.from("bench-only-webhook-secret-0123456789").toString("base64")}`;
/** As a launch would set them: caps far above the run's volume, so nothing waits for the hour. */
const LAUNCH_CAP = "10000000";

/** The mode BENCH_DELIVERIES names, or undefined when it is unset. */
export function mailModeFromEnv(): MailMode | undefined {
  const mode = process.env.BENCH_DELIVERIES;
  if (mode === undefined || mode === "") return undefined;
  if (!(MAIL_MODES as readonly string[]).includes(mode))
    throw new Error(`BENCH_DELIVERIES must be one of ${MAIL_MODES.join(", ")}, not ${mode}`);
  return mode as MailMode;
}

export async function startLaunchReceivers(mail: MailMode): Promise<LaunchReceivers> {
  const receivers = fork(new URL("./receivers.mjs", import.meta.url), [mail], {
    execArgv: [],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  setPriority(receivers.pid!, 19);
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => fail(new Error(`the receivers' process ended (exit ${code})`));
      const stop = () => {
        receivers.off("message", onMessage).off("error", fail).off("exit", onExit);
      };
      const fail = (error: Error) => {
        stop();
        reject(error);
      };
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        stop();
        resolve(message as T);
      };
      receivers.on("message", onMessage).on("error", fail).on("exit", onExit);
    });
  const { smtpPort, webhookPort } = await next<{ smtpPort: number; webhookPort: number }>("ready");
  return {
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: "FieldCrew <hello@fieldcrew.app>",
      MAIL_MAX_PER_HOUR: LAUNCH_CAP,
      MAIL_MAX_PER_DOMAIN_PER_HOUR: LAUNCH_CAP,
      // Enough connections for a mail server that takes 200 ms a message to keep up with a launch.
      MAIL_MAX_CONNECTIONS: "100",
      WAITLIST_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/hooks`,
      WAITLIST_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
    report: () => {
      const answer = next<ReceiverReport>("report");
      receivers.send({ type: "report" });
      return answer;
    },
    close: async () => {
      const exited = new Promise((resolve) => receivers.once("exit", resolve));
      receivers.kill();
      await exited;
    },
  };
}
