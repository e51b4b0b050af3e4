"use client";

import { CircleCheck, X } from "lucide";
import { useEffect, useId, useRef, useState } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import { Icon } from "@/components/ui/icon";
import { FIGURES } from "@/lib/content/site";
import type { WaitlistSignup } from "@/lib/waitlist/schema";
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
          <div className="py-4 text-center sm:py-8">
            <Icon node={CircleCheck} className="mx-auto size-14 text-emerald-600" />
            <h2 id={titleId} tabIndex={-1} data-initial-focus className="mt-4 text-2xl font-bold text-slate-900 sm:text-3xl">
              You&apos;re On The List!
            </h2>
            <p className="mx-auto mt-3 max-w-md text-slate-700">
              Thanks, {signedUp.contact_name}. {signedUp.company_name} has a founding-member spot waiting. Our team will
              reach out within {FIGURES.responseHours} hours at {signedUp.email} to learn about your business and set up
              early access.
            </p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <button type="button" onClick={onClose} className={buttonClasses("dark", "md")}>
                Done
              </button>
              <button type="button" onClick={startOver} className={buttonClasses("outline", "md")}>
                Add another company
              </button>
            </div>
          </div>
        ) : (
          <>
            <div className="pr-8">
              <h2 id={titleId} className="text-2xl font-bold text-slate-900 sm:text-3xl">
                Join the Waitlist
              </h2>
              <p className="mt-2 text-slate-700">
                Lock in {FIGURES.foundingDiscount} off for life as a founding member.{" "}
                <strong className="font-semibold text-brand-800">Only {FIGURES.spotsLeft.dialog} spots left this month.</strong>
              </p>
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
