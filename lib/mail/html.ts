/**
 * The site's emails as text and HTML: a visitor's value made safe for either, and the site's look
 * around a message. Every message the site sends is composed with these.
 */
import { SITE } from "../content/site";
import { DISGUISING_CHARACTERS } from "../security/disguising-characters";

/** A visitor's value as one plain line: control characters and direction overrides become spaces. */
export function plain(value: string): string {
  return value.replace(DISGUISING_CHARACTERS, " ");
}

export function escapeHtml(value: string): string {
  return plain(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * The site's email look around a message: the brand bar, a heading, the body (HTML the caller
 * has escaped), a button to `link` with the link written out below it, a small footnote.
 */
export function emailHtml(parts: {
  title: string;
  heading: string;
  body: string;
  link: string;
  linkLabel: string;
  footnote: string;
}): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(parts.title)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0b1220">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 12px">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#0b1220;padding:20px 28px;font-size:20px;font-weight:800;color:#ffffff">Field<span style="color:#fb923c">Crew</span></td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3">${escapeHtml(parts.heading)}</h1>
${parts.body}
<p style="margin:0 0 24px"><a href="${escapeHtml(parts.link)}" style="display:inline-block;background:#fb923c;color:#0b1220;font-weight:700;text-decoration:none;padding:12px 22px;border-radius:8px">${escapeHtml(parts.linkLabel)}</a></p>
<p style="margin:0 0 24px;font-size:13px;line-height:1.6;color:#64748b;word-break:break-all">${escapeHtml(parts.link)}</p>
<p style="margin:0;font-size:13px;line-height:1.6;color:#64748b">${escapeHtml(parts.footnote)}</p>
</td></tr>
<tr><td style="padding:16px 28px;background:#fff7ed;font-size:13px;color:#9a3412">The ${SITE.name} team · ${SITE.contactEmail}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
