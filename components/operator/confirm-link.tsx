/** "Confirm it's you": the link to the step-up page (app/operator/(console)/confirm), after a refusal that needs a fresh passkey sign-in. */
export function ConfirmLink({ href }: { href?: string }) {
  if (!href) return null;
  return (
    <>
      {" "}
      <a href={href} className="font-medium underline">
        Confirm it&apos;s you
      </a>
    </>
  );
}
