/**
 * A Tailwind plugin (app/globals.css, `@plugin`): an `icon-<name>` utility for each Lucide icon,
 * which sets `--mark` to the icon's drawing as a data: URL. The stylesheet draws it as a mask in
 * the text's colour (the marks' rule in globals.css, `.icon-before`), so a decorative icon is no
 * element at all: a page carries its markup twice, in the HTML and in the hydration data, and a
 * phone reads both after its first paint (docs/performance.md, issue 41).
 *
 * Tailwind writes out only the utilities the source uses, so the stylesheet holds only those icons.
 * Lucide's own settings (no fill, a 2 px round stroke) are written into each drawing, as its icons
 * are drawn everywhere else (.lucide-icon).
 */
import plugin from "tailwindcss/plugin";
import { icons } from "lucide";

/** CalendarCheck -> calendar-check, as Lucide names its icons on its site. */
function kebab(name) {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** One icon as an SVG document in a data: URL. */
function dataUrl(node) {
  const children = node
    .map(
      ([tag, attributes]) =>
        `<${tag} ${Object.entries(attributes)
          .map(([name, value]) => `${name}='${value}'`)
          .join(" ")}/>`,
    )
    .join("");
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'>${children}</svg>`;
  // Only what a data: URL in a quoted CSS url() must escape: the drawing stays readable and short
  // (encodeURIComponent made each icon half as long again).
  return `url("data:image/svg+xml,${svg.replace(/[<>#%]/g, encodeURIComponent)}")`;
}

// The values are the icons' names; a drawing is made only for a utility the source uses (every
// drawing made up front was 0.9 MB of strings and 21 ms on each build).
export default plugin(({ matchUtilities }) => {
  matchUtilities(
    { icon: (name) => ({ "--mark": dataUrl(icons[name]) }) },
    { values: Object.fromEntries(Object.keys(icons).map((name) => [kebab(name), name])) },
  );
});
