/**
 * Launch day's receivers for the benchmarks (BENCH_DELIVERIES=fast|slow|refusing): the SMTP server
 * and webhook receiver of ./receivers.mjs in a thread of the benchmark's process, and the
 * environment that points the site at them with the hourly mail caps raised as a launch would
 * raise them.
 */
import { Worker } from "node:worker_threads";

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
  const thread = new Worker(new URL("./receivers.mjs", import.meta.url), { workerData: { mail } });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        thread.off("message", onMessage);
        resolve(message as T);
      };
      thread.on("message", onMessage);
      thread.once("error", reject);
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
      thread.postMessage({ type: "report" });
      return answer;
    },
    close: async () => {
      await thread.terminate();
    },
  };
}
