import { jsonForScript } from "@/lib/content/structured-data";

/** Structured data for search engines (schema.org as JSON-LD), escaped so no content can end its script. */
export function JsonLd({ data }: { data: object }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(data) }} />;
}
