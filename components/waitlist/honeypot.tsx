/**
 * A field for programs only (docs/security.md). display:none keeps it from
 * being seen, reached with Tab, read out by screen readers or filled in by
 * password managers; a program that fills in every input it finds fills it.
 */
export function Honeypot({ id, name }: { id: string; name: string }) {
  return (
    <div className="hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} name={name} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
