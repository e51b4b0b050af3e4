/**
 * The picture a shared link shows (Open Graph and Twitter's card, 1200 × 630): the brand's mark and
 * colours with the page's own title, drawn by next/og at build time. Every public page has one
 * (its opengraph-image.tsx); the fonts are Inter's files from @fontsource/inter, read from disk,
 * so nothing is downloaded at build or run time.
 */
import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ImageResponse } from "next/og";
import { FIGURES, SITE, TRADES_SERVED } from "@/lib/content/site";
import type { PageInfo } from "@/lib/content/pages";

export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 };
export const SHARE_IMAGE_TYPE = "image/png";

/** The brand's colours (app/globals.css). */
const INK = "#0b1220";
export const BRAND = "#fb923c";
const MUTED = "#cbd5e1";

async function inter(weight: 400 | 800): Promise<ArrayBuffer> {
  const file = path.join(process.cwd(), "node_modules", "@fontsource", "inter", "files", `inter-latin-${weight}-normal.woff`);
  const bytes = await readFile(/*turbopackIgnore: true*/ file);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The words the picture says, as its alt text. */
export function shareImageAlt(page: PageInfo): string {
  return page.title.includes(SITE.name) ? page.title : `${SITE.name}: ${page.title}`;
}

/** The site's mark: an orange rounded square with an F and a dot (app/icon.svg). */
export function Mark({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32">
      <rect width="32" height="32" rx="8" fill={BRAND} />
      <path d="M9 23V9h12v3.5h-8v2.5h6.5v3.5H13V23z" fill={INK} />
      <circle cx="22.5" cy="21.5" r="2.5" fill={INK} />
    </svg>
  );
}

/** The page's picture: the mark and name, its title, and what the product is for. */
export async function shareImage(page: PageInfo): Promise<ImageResponse> {
  // The title without the name it often starts with: the wordmark above already says it.
  const title = page.title.replace(new RegExp(`^${SITE.name}: `), "").replace(new RegExp(` \\| ${SITE.name}$`), "");
  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: "64px 72px",
        backgroundColor: INK,
        backgroundImage: `radial-gradient(circle at 88% 12%, rgba(251, 146, 60, 0.35), rgba(11, 18, 32, 0) 45%)`,
        color: "white",
        fontFamily: "Inter",
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 20 }}>
        <Mark size={72} />
        <div style={{ fontSize: 44, fontWeight: 800, letterSpacing: -1 }}>{SITE.name}</div>
      </div>
      <div style={{ display: "flex", flexDirection: "column" }}>
        <div style={{ width: 96, height: 8, borderRadius: 4, backgroundColor: BRAND, marginBottom: 28 }} />
        <div style={{ fontSize: title.length > 60 ? 56 : 66, fontWeight: 800, lineHeight: 1.1, letterSpacing: -1.5, maxWidth: 1000 }}>
          {title.charAt(0).toUpperCase() + title.slice(1)}
        </div>
      </div>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "flex-end", fontSize: 26, color: MUTED }}>
        <div style={{ display: "flex", maxWidth: 700 }}>{`For ${TRADES_SERVED.slice(0, 5).join(", ")} and more`}</div>
        <div
          style={{ display: "flex", flexShrink: 0, color: BRAND, fontWeight: 800 }}
        >{`${FIGURES.foundingDiscount} off for founding members`}</div>
      </div>
    </div>,
    {
      ...SHARE_IMAGE_SIZE,
      fonts: [
        { name: "Inter", data: await inter(400), weight: 400 },
        { name: "Inter", data: await inter(800), weight: 800 },
      ],
    },
  );
}
