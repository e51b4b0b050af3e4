/**
 * The shape of the code, checked by `npm run lint` (docs/architecture.md, "Dependencies"): no file
 * imports itself round a loop; lib/'s folders stand in one order (LAYERS), each importing only
 * those before it; the files at lib/'s top import no folder (but http.ts, which stands after db);
 * lib/ never imports the app, the components, or the tooling in scripts/ and bench/.
 */

/** lib/'s folders, lowest first: each may import the ones before it, never one after. */
const LAYERS = [
  "content",
  "db",
  "http",
  "security",
  "audit",
  "mail",
  "outbox",
  "backup",
  "follow-up",
  "waitlist",
  "updates",
  "analytics",
  "auth",
  "console",
  "health",
  "cli",
  "site",
];
const pathOf = (layer) => (layer === "http" ? "^lib/http\\.ts$" : `^lib/${layer}/`);

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `lib/${layer} imports only what stands before it (${LAYERS.slice(0, i).join(", ") || "lib/'s top files"}): move what both need down, not the import up.`,
  severity: "error",
  from: { path: pathOf(layer) },
  to: {
    path: `(${LAYERS.slice(i + 1)
      .map(pathOf)
      .join("|")})`,
  },
}));

module.exports = {
  forbidden: [
    {
      name: "no-file-cycles",
      comment: "A file that reaches itself through its imports: move what both need to a file of its own.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-folder-cycles",
      comment: "Two folders of lib/ that import each other: what both need belongs in a folder of its own.",
      severity: "error",
      scope: "folder",
      from: { path: "^lib/" },
      to: { circular: true },
    },
    {
      name: "lib-not-to-app",
      comment: "lib/ is the site's logic; the app, the components and the tooling use it, never the other way round.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components|scripts|bench)/" },
    },
    {
      name: "lib-top-files-first",
      comment: "The files at lib/'s top (env, log, time, ...) stand below every folder; http.ts is the one that stands after db.",
      severity: "error",
      from: { path: "^lib/[^/]+\\.(ts|mjs)$", pathNot: "^lib/http\\.ts$" },
      to: { path: "^lib/[^/]+/" },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^lib/generated/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
