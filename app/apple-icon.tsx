import { ImageResponse } from "next/og";
import { BRAND, Mark } from "@/components/site/share-image";

// The icon a phone's home screen shows for the site (180 × 180), drawn at build time from the mark.
export const size = { width: 180, height: 180 };
export const contentType = "image/png";

export default function AppleIcon() {
  return new ImageResponse(
    <div style={{ width: "100%", height: "100%", display: "flex", alignItems: "center", justifyContent: "center", backgroundColor: BRAND }}>
      <Mark size={180} />
    </div>,
    size,
  );
}
