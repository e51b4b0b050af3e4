/**
 * Runs `work` once the page has loaded and the browser is idle: visit counting must never
 * take time from the page itself (Lighthouse's TBT and LCP stay as they were).
 */
export function afterLoad(work: () => void): () => void {
  let cancelled = false;
  const idle = () => {
    if (cancelled) return;
    if ("requestIdleCallback" in window) requestIdleCallback(() => !cancelled && work(), { timeout: 3000 });
    else setTimeout(() => !cancelled && work(), 1);
  };
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", idle);
  };
}
