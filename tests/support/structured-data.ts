/**
 * Google's rich-result rules as Adobe's structured-data validator states them, run over JSON-LD
 * objects as a page carries them: what a search engine would find missing or wrong.
 */
import Validator from "@adobe/structured-data-validator";

type StructuredDataIssue = { rootType: string; severity: "ERROR" | "WARNING"; issueMessage: string; fieldNames?: string[] };

/** Every issue the validator finds in `items` (each a JSON-LD object with its @type). */
export async function structuredDataIssues(items: readonly object[]): Promise<StructuredDataIssue[]> {
  const byType: Record<string, object[]> = {};
  for (const item of items) {
    const type = String((item as { "@type"?: unknown })["@type"]);
    (byType[type] ??= []).push(structuredClone(item));
  }
  // Without schema.org's vocabulary file (a download), the property names are checked by the
  // compiler instead: lib/content/structured-data.ts is typed with schema-dts.
  return (await new Validator().validate({ jsonld: byType })) as StructuredDataIssue[];
}
