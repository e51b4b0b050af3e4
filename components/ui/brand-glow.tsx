/** The warm light in the corner of the dark banners (home hero, inner page intros). Decorative. */
export function BrandGlow({ withCoolCorner = false }: { withCoolCorner?: boolean }) {
  const warm = "radial-gradient(ellipse at top right, rgba(251,146,60,0.22), transparent 55%)";
  const cool = "radial-gradient(ellipse at bottom left, rgba(56,189,248,0.12), transparent 50%)";
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none absolute inset-0"
      style={{ backgroundImage: withCoolCorner ? `${warm}, ${cool}` : warm }}
    />
  );
}
