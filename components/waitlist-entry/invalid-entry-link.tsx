import { MessagePage } from "@/components/site/message-page";
import { SITE } from "@/lib/content/site";

/** A link that is not one of ours (made up, altered, cut short): refused, without saying more. */
export function InvalidEntryLink() {
  return (
    <MessagePage eyebrow="Waitlist entry" title="This link is not valid">
      A link to a waitlist entry works only exactly as it came in our email. If you copied it by hand, check that nothing is missing. If it
      still does not work, write to{" "}
      <a href={`mailto:${SITE.contactEmail}`} className="font-semibold text-slate-900 underline underline-offset-4">
        {SITE.contactEmail}
      </a>
      .
    </MessagePage>
  );
}
