"use client";

import { X } from "lucide";
import { useEffect, useId, useRef, useState } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import { Icon } from "@/components/ui/icon";
import type { WaitlistSignup } from "@/lib/waitlist/schema";
import { WaitlistIntro } from "./signup-notes";
import { SignupSuccess } from "./signup-success";
import { WaitlistForm } from "./waitlist-form";

type Props = {
  isOpen: boolean;
  openCount: number;
  onClose: () => void;
};

/**
 * The Join the Waitlist dialog. A native <dialog> opened with showModal(): the
 * browser makes the page behind it inert, keeps focus inside, closes it on
 * Escape, and `closedby="any"` adds closing by a click outside.
 */
export default function WaitlistDialog({ isOpen, openCount, onClose }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Stays set after the dialog closes: reopening shows the confirmation again
  // rather than an empty form that invites a duplicate (docs/waitlist-dialog.md).
  const [signedUp, setSignedUp] = useState<WaitlistSignup | null>(null);
  const [formKey, setFormKey] = useState(0);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-initial-focus], form input")?.focus();
    } else if (!isOpen && dialog.open) {
      dialog.close();
    }
  }, [isOpen]);

  useEffect(() => {
    if (signedUp) dialogRef.current?.querySelector<HTMLElement>("[data-initial-focus]")?.focus();
  }, [signedUp]);

  function startOver() {
    setSignedUp(null);
    setFormKey((key) => key + 1);
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      {...{ closedby: "any" }}
      className="waitlist-dialog m-auto max-h-[calc(100dvh-1.5rem)] w-[calc(100%-1.5rem)] max-w-2xl overflow-y-auto overscroll-contain rounded-2xl bg-white p-0 text-slate-800 shadow-2xl"
    >
      <div className="relative p-5 sm:p-8">
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="absolute top-3 right-3 rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
        >
          <Icon node={X} className="size-5" />
        </button>

        {signedUp ? (
          <SignupSuccess joined={signedUp} titleId={titleId}>
            <button type="button" onClick={onClose} className={buttonClasses("dark", "md")}>
              Done
            </button>
            <button type="button" onClick={startOver} className={buttonClasses("outline", "md")}>
              Add another company
            </button>
          </SignupSuccess>
        ) : (
          <>
            <div className="pr-8">
              <WaitlistIntro titleId={titleId} />
            </div>
            <div className="mt-6">
              <WaitlistForm key={formKey} openCount={openCount} onSuccess={setSignedUp} />
            </div>
          </>
        )}
      </div>
    </dialog>
  );
}
