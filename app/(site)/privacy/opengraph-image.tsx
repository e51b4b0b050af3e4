import { SHARE_IMAGE_SIZE, SHARE_IMAGE_TYPE, shareImage, shareImageAlt } from "@/components/site/share-image";
import { PAGES } from "@/lib/content/pages";

// The picture a shared link to this page shows, drawn at build time (components/site/share-image.tsx).
export const alt = shareImageAlt(PAGES.privacy);
export const size = SHARE_IMAGE_SIZE;
export const contentType = SHARE_IMAGE_TYPE;

export default function Image() {
  return shareImage(PAGES.privacy);
}
