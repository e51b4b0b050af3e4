/**
 * `npm run dev:e2e`: the development server (hot reload) with the end-to-end tests' environment
 * (e2e/support/server-env.ts) and a fresh database of theirs, on their port, so that
 *
 *   E2E_BASE_URL=http://localhost:3210 npm run test:e2e
 *
 * runs them against code as you change it. Playwright starts the mail catcher the server sends to.
 */
import { execFileSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { E2E_PORT, E2E_SITE_URL } from "../support/config";
import { e2eServerEnv } from "../support/server-env";

const env = { ...process.env, ...e2eServerEnv(E2E_SITE_URL) };
rmSync(".tmp/e2e", { recursive: true, force: true });
execFileSync("npm", ["run", "--silent", "db:migrate"], { env, stdio: "inherit" });
const server = spawn(process.execPath, ["--import", "tsx", "server.ts", "--dev", "--port", String(E2E_PORT)], { env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
