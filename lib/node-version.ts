/**
 * The Node.js the site needs (package.json's engines), checked first by `npm start`, `npm run dev`
 * and the server itself, so an older one gets a sentence with the fix instead of a stack trace.
 */

export const MINIMUM_NODE = "20.9.0";

/** The sentence to print when `version` is older than MINIMUM_NODE; null when it will do. */
export function nodeVersionProblem(version: string = process.versions.node): string | null {
  const have = version.split(".").map(Number);
  const need = MINIMUM_NODE.split(".").map(Number);
  for (let part = 0; part < 3; part += 1) {
    if ((have[part] ?? 0) > need[part]!) return null;
    if ((have[part] ?? 0) < need[part]!) {
      return `FieldCrew needs Node.js ${MINIMUM_NODE} or newer, and this is ${version}: install a current LTS (https://nodejs.org, or nvm install --lts), then run the command again.`;
    }
  }
  return null;
}

/** Exits with the sentence when this Node.js is too old. */
export function requireSupportedNode(): void {
  const problem = nodeVersionProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
