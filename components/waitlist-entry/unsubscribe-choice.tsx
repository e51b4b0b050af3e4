import { MessagePage } from "@/components/site/message-page";
import { buttonClasses } from "@/components/ui/button-styles";
import { UNSUBSCRIBE_PATH } from "@/lib/content/paths";
import { SITE } from "@/lib/content/site";
import { FROM_PAGE, type UnsubscribePage } from "@/lib/waitlist/unsubscribe";

/**
 * The unsubscribe page: a plain form that POSTs to the one-click address (works without script),
 * and afterwards says it is done. Nothing about the person: whoever holds the link (an
 * unsubscribe service, a mailbox provider) learns only whether mail still goes to it.
 */
export function UnsubscribeChoice({ page, token }: { page: UnsubscribePage; token: string }) {
  if (page.state === "invalid")
    return (
      <MessagePage eyebrow="Email from us" title="This link is not valid">
        A link to stop our emails works only exactly as it came in our email. To stop them anyway, use your mail program&apos;s Unsubscribe
        button, or write to{" "}
        <a href={`mailto:${SITE.contactEmail}`} className="font-semibold text-slate-900 underline underline-offset-4">
          {SITE.contactEmail}
        </a>
        .
      </MessagePage>
    );
  if (page.state === "unavailable")
    return (
      <MessagePage eyebrow="Email from us" title="We can't do that right now" isStatus>
        Our waitlist is very busy or briefly unavailable. Your link still works: please reload this page in a minute.
      </MessagePage>
    );
  if (page.state === "gone")
    return (
      <MessagePage eyebrow="Email from us" title="This entry is no longer on the waitlist">
        It was removed, so we send it nothing.
      </MessagePage>
    );
  if (page.entry.unsubscribed)
    return (
      <MessagePage eyebrow="Email from us" title="You're unsubscribed" isStatus>
        We will send no more email of any kind to this address. Your place on the waitlist is kept.
      </MessagePage>
    );
  return (
    <MessagePage
      eyebrow="Email from us"
      title={`Stop emails from ${SITE.name}?`}
      action={
        <form method="post" action={`${UNSUBSCRIBE_PATH}/${encodeURIComponent(token)}?${FROM_PAGE}`}>
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <button type="submit" className={buttonClasses("dark", "lg")}>
            Unsubscribe
          </button>
        </form>
      }
    >
      One click and we send no more email of any kind to this address: no updates, no invitation. Your place on the waitlist is kept.
    </MessagePage>
  );
}
