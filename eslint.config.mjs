import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig, globalIgnores } from "eslint/config";

// lucide-react's icons are client components; components/ui/icon.tsx draws the same icons
// from the `lucide` package's data without sending them through hydration.
const noLucideReact = { name: "lucide-react", message: 'Use <Icon node={…} /> from @/components/ui/icon with icons from "lucide".' };

// Prisma Client is the one data layer (lib/db/, with its worker thread lib/db/worker.mjs); only it knows the drivers.
const driverMessage = "Query through Prisma Client from @/lib/db; only lib/db/ talks to drivers.";
const noDrivers = ["better-sqlite3", "@libsql/client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-libsql"].map((name) => ({
  name,
  message: driverMessage,
}));

/**
 * Server-only code is marked the Next.js way: `import "server-only"` at the top
 * of the module (lib/db/, the handlers, secrets, mail). `next build` fails when
 * a client bundle reaches one; this rule says so in the editor and in `npm run
 * lint`, naming the chain: a "use client" file may not import, directly or
 * through other modules of ours, a module marked server-only.
 */
const ROOT = import.meta.dirname;
const IMPORT_SPECIFIERS =
  /(?:^|[\n;])\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|(?:^|[\n;])\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const SERVER_ONLY_MARK = /^\s*import\s+["']server-only["']/m;

/** Our own module a specifier names (relative or "@/"), as a file path; undefined for a package. */
function localModule(specifier, fromFile) {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(fromFile), specifier)
      : null;
  if (!base) return undefined;
  const candidates = [
    base,
    ...[".ts", ".tsx", ".mjs", ".js"].map((ext) => base + ext),
    ...["index.ts", "index.tsx"].map((name) => path.join(base, name)),
  ];
  return candidates.find((file) => existsSync(file) && !file.endsWith("/") && path.extname(file) !== "");
}

/** Type-only imports never reach the browser. */
const withoutTypeImports = (source) => source.replace(/(?:^|\n)\s*(?:import|export)\s+type\s[^;]*?from\s*["'][^"']+["'];?/g, "\n");

/** The chain from `file` to the first server-only module it reaches, or null. */
function serverOnlyChain(file, seen = new Set()) {
  if (seen.has(file)) return null;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  if (SERVER_ONLY_MARK.test(source)) return [file];
  for (const match of withoutTypeImports(source).matchAll(IMPORT_SPECIFIERS)) {
    const target = localModule(match[1] ?? match[2] ?? match[3], file);
    const chain = target && serverOnlyChain(target, seen);
    if (chain) return [file, ...chain];
  }
  return null;
}

const serverOnlyBoundary = {
  rules: {
    "no-server-only-in-client": {
      meta: { type: "problem", schema: [], docs: { description: "A client component may not reach a module marked server-only." } },
      create(context) {
        const isClient = context.sourceCode.ast.body.some((node) => node.type === "ExpressionStatement" && node.directive === "use client");
        if (!isClient) return {};
        const check = (node, specifier) => {
          const target = localModule(specifier, context.filename);
          const chain = target && serverOnlyChain(target);
          if (!chain) return;
          const shown = chain.map((file) => path.relative(ROOT, file)).join(" -> ");
          context.report({
            node,
            message: `A client component cannot import server-only code: ${shown}. Move what the browser needs into a module without "server-only".`,
          });
        };
        return {
          ImportDeclaration(node) {
            if (node.importKind !== "type") check(node, node.source.value);
          },
          ExportNamedDeclaration(node) {
            if (node.source && node.exportKind !== "type") check(node, node.source.value);
          },
          ExportAllDeclaration(node) {
            if (node.exportKind !== "type") check(node, node.source.value);
          },
          ImportExpression(node) {
            if (node.source.type === "Literal") check(node, node.source.value);
          },
        };
      },
    },
  },
};

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
    files: ["app/**/*.tsx", "components/**/*.tsx", "lib/**/*.ts", "lib/**/*.tsx"],
    plugins: { boundary: serverOnlyBoundary },
    rules: { "boundary/no-server-only-in-client": "error" },
  },
  {
    files: ["app/**", "components/**", "lib/**", "server.ts"],
    ignores: ["lib/db/**"],
    rules: { "no-restricted-imports": ["error", { paths: [noLucideReact, ...noDrivers] }] },
  },
  globalIgnores([
    "**/.next/**",
    ".tmp/**",
    "**/next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
    "bench/results/**",
    "lib/generated/**",
  ]),
]);
