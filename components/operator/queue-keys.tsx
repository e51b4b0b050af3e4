"use client";

import { useEffect } from "react";
import { useHydrated } from "@/components/operator/use-hydrated";

/**
 * The queue's keys, for an operator working down the list: j and k move between
 * entries (focus lands on the entry's name), c marks the focused one contacted
 * (its note, if typed, goes with it), x selects it for a change to several at
 * once. Keys typed into a field are left alone. Without JavaScript every action
 * is still a button and a checkbox.
 *
 * It also renders the line that names the keys (the entries' names point to it
 * with aria-describedby), empty and hidden until the keys listen: in the server's
 * HTML, and without JavaScript, the keys would do nothing, so the page does not
 * offer them: an operator is not told of keys that do nothing yet.
 */
export function QueueKeys() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable]")) return;
      const rows = [...document.querySelectorAll<HTMLElement>("[data-queue-row]")];
      if (rows.length === 0) return;
      const current = rows.findIndex((row) => row.contains(document.activeElement));
      const focusRow = (index: number) => rows[index]?.querySelector<HTMLElement>("[data-queue-focus]")?.focus();
      if (event.key === "j" || event.key === "k") {
        event.preventDefault();
        focusRow(current < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, current + (event.key === "j" ? 1 : -1))));
      } else if (event.key === "c" && current >= 0) {
        event.preventDefault();
        rows[current]!.querySelector<HTMLFormElement>("form[data-queue-contact]")?.requestSubmit();
      } else if (event.key === "x" && current >= 0) {
        event.preventDefault();
        rows[current]!.querySelector<HTMLInputElement>("input[type=checkbox]")?.click();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  // Called after the effect above: while hydrating, React runs this component's effects in
  // hook order, and useHydrated's switch to true (one of them) renders the line after the
  // listener is in place.
  const listening = useHydrated();
  return (
    <p id="queue-keys" hidden={!listening} className="mb-2 text-xs text-slate-600">
      {listening && (
        <>
          Keys: <kbd className="font-semibold">j</kbd>/<kbd className="font-semibold">k</kbd> next and previous entry,{" "}
          <kbd className="font-semibold">c</kbd> mark it contacted, <kbd className="font-semibold">x</kbd> select it.
        </>
      )}
    </p>
  );
}
