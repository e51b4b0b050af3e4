import { CircleCheck, Download, MailCheck, Trash2 } from "lucide";
import type { ReactNode } from "react";
import { MessagePage } from "@/components/site/message-page";
import { PageIntro } from "@/components/site/page-intro";
import { buttonClasses } from "@/components/ui/button-styles";
import { Icon } from "@/components/ui/icon";
import { SITE } from "@/lib/content/site";
import { ENTRY_PAGE_PATH } from "@/lib/content/paths";
import type { EntryAction, EntryPage, EntryView } from "@/lib/waitlist/visitor-entry";

const ACTION_URL = "/api/waitlist/entry";

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

type Props = { page: Exclude<EntryPage, { state: "invalid" }>; token: string; done?: EntryAction };

/**
 * The visitor's own page: their entry, Confirm my email, and Remove me from the
 * waitlist. Plain forms that post to the server, so it works without
 * JavaScript and with the keyboard alone; each answer brings this page back.
 */
export function VisitorEntry({ page, token, done }: Props) {
  if (page.state === "gone") return <EntryGone removedNow={done === "remove"} />;
  if (page.state === "unavailable") return <EntryUnavailable />;
  const { entry } = page;
  return (
    <>
      <PageIntro
        eyebrow="Your waitlist entry"
        title={`You're on the list, ${entry.contactName}`}
        intro={`This is what ${SITE.name} has on file for you, and where you stand with our team.`}
      />
      <section aria-label="Your entry" className="bg-slate-50 py-12 sm:py-16">
        <div className="mx-auto max-w-2xl px-4 sm:px-6">
          {done === "confirm" && entry.confirmedAt && (
            <p
              role="status"
              className="mb-6 flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-emerald-900"
            >
              <Icon node={CircleCheck} className="mt-0.5 size-5 shrink-0" />
              Thanks, your email address is confirmed.
            </p>
          )}
          {entry.standing && (
            <section aria-labelledby="standing" className="mb-6 rounded-xl border border-brand-300 bg-brand-50 p-5 sm:p-6">
              <h2 id="standing" className="text-lg font-bold text-slate-900">
                {entry.standing.heading}
              </h2>
              <p className="mt-1 text-slate-700">{entry.standing.text}</p>
            </section>
          )}
          <EntryDetails entry={entry} />
          <div className="mt-8 space-y-6">
            {entry.confirmedAt ? null : (
              <EntryForm token={token} action="confirm">
                <p className="text-slate-700">Is {entry.email} right? Confirming tells us it reaches you.</p>
                <button type="submit" className={buttonClasses("primary", "lg", "mt-4")}>
                  <Icon node={MailCheck} className="size-5" />
                  Confirm my email
                </button>
              </EntryForm>
            )}
            <div className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6">
              <p className="text-slate-700">Everything we hold about your entry, and what we sent about it, as a file.</p>
              {/* A plain link: it works without JavaScript, and the page sends no Referer with it. */}
              <a href={`${ENTRY_PAGE_PATH}/${encodeURIComponent(token)}/data`} download className={buttonClasses("outline", "md", "mt-4")}>
                <Icon node={Download} className="size-5" />
                Download my data
              </a>
            </div>
            <details className="group rounded-xl border border-slate-200 bg-white p-5 sm:p-6">
              <summary className="cursor-pointer font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-500">
                I want to leave the waitlist
              </summary>
              <EntryForm token={token} action="remove">
                <p className="mt-4 text-slate-700">
                  This deletes your entry and anything we were still going to send you about it. It cannot be undone, and we will not email
                  you again.
                </p>
                <button type="submit" className={buttonClasses("danger", "md", "mt-4")}>
                  <Icon node={Trash2} className="size-5" />
                  Remove me from the waitlist
                </button>
              </EntryForm>
            </details>
          </div>
        </div>
      </section>
    </>
  );
}

function EntryForm({ token, action, children }: { token: string; action: EntryAction; children: ReactNode }) {
  const form = (
    <form method="post" action={ACTION_URL}>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="action" value={action} />
      {children}
    </form>
  );
  return action === "remove" ? form : <div className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6">{form}</div>;
}

function EntryDetails({ entry }: { entry: EntryView }) {
  const rows: [string, string][] = [
    ...entry.registered,
    ["Signed up", `${day.format(entry.signedUpAt)} (UTC)`],
    ["Email confirmed", entry.confirmedAt ? `Yes, on ${day.format(entry.confirmedAt)} (UTC)` : "Not yet"],
    ...(entry.unsubscribedAt
      ? ([["Emails from us", `None: you unsubscribed on ${day.format(entry.unsubscribedAt)} (UTC), so we send you nothing more`]] as [
          string,
          string,
        ][])
      : []),
  ];
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 className="text-lg font-bold text-slate-900">What you registered</h2>
      <dl className="mt-4 divide-y divide-slate-100">
        {rows.map(([label, value]) => (
          <div key={label} className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
            <dt className="text-sm font-medium text-slate-600">{label}</dt>
            <dd className="text-slate-900 break-words sm:col-span-2">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The database cannot answer right now (busy, restarting): nothing is wrong with the link. */
function EntryUnavailable() {
  return (
    <MessagePage eyebrow="Your waitlist entry" title="We can't show your entry right now" isStatus>
      Our waitlist is very busy or briefly unavailable. Your entry is safe and your link still works: please reload this page in a minute.
    </MessagePage>
  );
}

/** After a removal, and on every later visit of the link. */
function EntryGone({ removedNow }: { removedNow: boolean }) {
  return (
    <MessagePage
      eyebrow="Your waitlist entry"
      title={removedNow ? "You're off the waitlist" : "This waitlist entry no longer exists"}
      isStatus={removedNow}
    >
      {removedNow
        ? "We deleted your entry and everything we were still going to send you about it. We will not email you again."
        : "It was removed from the waitlist, so there is nothing to show or change here."}{" "}
      Changed your mind? You can join again from any page.
    </MessagePage>
  );
}
