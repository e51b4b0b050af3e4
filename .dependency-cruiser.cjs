/**
 * The shape of the code, checked by `npm run lint` (docs/architecture.md, "Dependencies"):
 * no file imports itself round a loop, no two folders of lib/ import each other, and lib/
 * never imports the app or components.
 */
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
      comment: "lib/ is the site's logic; the app and the components use it, never the other way round.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^lib/generated/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
