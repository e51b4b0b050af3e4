import { FIGURES } from "@/lib/content/site";
import { LINK_AGAIN_PATH, PRIVACY_PATH } from "@/lib/content/paths";
import { VISITOR_MESSAGES } from "@/lib/waitlist/messages";

const linkClasses = "font-semibold underline underline-offset-2 hover:text-slate-900";

/**
 * A refused sign-up's message (the spec's catalogue). A duplicate's visitor may have lost
 * the email with their link, so it offers a new one.
 */
export function SignupRefusal({ message, autoFocus = false }: { message: string; autoFocus?: boolean }) {
  return (
    <div
      role="alert"
      tabIndex={-1}
      autoFocus={autoFocus}
      className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
    >
      <p>{message}</p>
      {message === VISITOR_MESSAGES.alreadyOnList && (
        <p className="mt-1 font-normal">
          Lost the email with your link?{" "}
          <a href={LINK_AGAIN_PATH} className={linkClasses}>
            Email me my link again
          </a>
        </p>
      )}
    </div>
  );
}

/** Under the submit button: what the details are for, and the notice that says the rest. */
export function PrivacyLine() {
  return (
    <p className="text-center text-xs text-slate-600">
      We only use your details to contact you about early access. No spam, ever.{" "}
      <a href={PRIVACY_PATH} className="underline underline-offset-2 hover:text-slate-900">
        Privacy notice
      </a>
    </p>
  );
}

/** Above the form: its title and the founding offer, with the spots left as the spec has them for the form. */
export function WaitlistIntro({ titleId, level: Title = "h2" }: { titleId: string; level?: "h1" | "h2" }) {
  return (
    <>
      <Title id={titleId} className="text-2xl font-bold text-slate-900 sm:text-3xl">
        Join the Waitlist
      </Title>
      <p className="mt-2 text-slate-700">
        Lock in {FIGURES.foundingDiscount} off for life as a founding member.{" "}
        <strong className="font-semibold text-brand-800">Only {FIGURES.spotsLeft.dialog} spots left this month.</strong>
      </p>
    </>
  );
}
