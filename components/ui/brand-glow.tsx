/**
 * The warm light in the corner of the dark banners (home hero, inner page intros), and on the
 * home hero a cool one opposite it. Decorative; drawn by pseudo-elements in globals.css.
 */
export function BrandGlow({ withCoolCorner = false }: { withCoolCorner?: boolean }) {
  return (
    <div
      aria-hidden="true"
      className={`pointer-events-none absolute inset-0 ${withCoolCorner ? "brand-glow brand-glow-cool" : "brand-glow"}`}
    />
  );
}
