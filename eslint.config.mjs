import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { defineConfig, globalIgnores } from "eslint/config";

// lucide-react's icons are client components; components/ui/icon.tsx draws the same icons
// from the `lucide` package's data without sending them through hydration.
const noLucideReact = { name: "lucide-react", message: "Use <Icon node={…} /> from @/components/ui/icon with icons from \"lucide\"." };

// Prisma Client is the one data layer (lib/db/, with its worker thread lib/db/worker.mjs); only it knows the drivers.
const driverMessage = "Query through Prisma Client from @/lib/db; only lib/db/ talks to drivers.";
const noDrivers = ["better-sqlite3", "@libsql/client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-libsql"].map((name) => ({
  name,
  message: driverMessage,
}));

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  {
    rules: {
      // A leading underscore marks a value left out on purpose (e.g. when omitting a key).
      "@typescript-eslint/no-unused-vars": ["warn", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Site links are plain <a> on purpose: no per-link client component, no prefetching of
      // every linked page (components/site/site-header.tsx, docs/performance.md).
      "@next/next/no-html-link-for-pages": "off",
      "no-restricted-imports": ["error", { paths: [noLucideReact] }],
    },
  },
  {
    files: ["app/**", "components/**", "lib/**", "server.ts"],
    ignores: ["lib/db/**"],
    rules: { "no-restricted-imports": ["error", { paths: [noLucideReact, ...noDrivers] }] },
  },
  globalIgnores(["**/.next/**", ".tmp/**", "**/next-env.d.ts", "test-results/**", "playwright-report/**", "bench/results/**", "lib/generated/**"]),
]);
