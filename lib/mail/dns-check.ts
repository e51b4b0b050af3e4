/**
 * What a mailbox provider looks up before it trusts the site's mail: the sending domain's MX, SPF,
 * DKIM (the configured selector's record, matched against the configured key) and DMARC records.
 * Each check says what is missing or wrong and the exact record to add (`npm run waitlist -- mail
 * check`; docs/operations.md, "Mail that reaches the inbox").
 */
import { lookup, Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { dkimRecord, type DkimSettings } from "./dkim";

type MailCheck = { name: "MX" | "SPF" | "DKIM" | "DMARC"; ok: boolean; says: string };

type MailCheckInput = {
  domain: string;
  dkim: DkimSettings | null;
  /** The SMTP server the site sends through (SMTP_URL's host), for the SPF record to suggest. */
  smtpHost: string | null;
  /** A DNS server to ask ("127.0.0.1:5353"); by default the system's. */
  dnsServer?: string;
};

/** A DNS server's address as the resolver takes it ("10.0.0.2:53", "[::1]:53"), from HOST[:PORT] where HOST may be a name. */
async function serverAddress(server: string): Promise<string> {
  const text = server.trim();
  if (isIP(text) !== 0) return text;
  const parts = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text) ?? /^([^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!parts) throw new DnsServerProblem(`--dns takes HOST or HOST:PORT, such as 127.0.0.1:53 or ns1.example.net (not "${text}").`);
  const [, host, port] = parts as unknown as [string, string, string | undefined];
  let address = host;
  if (isIP(host) === 0) {
    try {
      address = (await lookup(host)).address;
    } catch {
      throw new DnsServerProblem(`The DNS server ${host} could not be found.`);
    }
  }
  if (!port) return address;
  return isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

/** A --dns value that names no server; its message says what to give instead. */
export class DnsServerProblem extends Error {}

/** The TXT records at `name`, each joined from its strings; none when the name has none or does not exist. */
async function txt(resolver: Resolver, name: string): Promise<string[]> {
  try {
    return (await resolver.resolveTxt(name)).map((strings) => strings.join(""));
  } catch (error) {
    if (["ENOTFOUND", "ENODATA"].includes((error as NodeJS.ErrnoException).code ?? "")) return [];
    throw error;
  }
}

/** The p= of a DKIM record, without spaces (long records are often split). */
const publicKeyOf = (record: string) => /(?:^|;)\s*p=([^;]*)/.exec(record)?.[1]?.replace(/\s+/g, "") ?? null;

export async function checkMailDns(input: MailCheckInput): Promise<MailCheck[]> {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  if (input.dnsServer) resolver.setServers([await serverAddress(input.dnsServer)]);
  const { domain } = input;
  const checks: MailCheck[] = [];

  let mx: { exchange: string; priority: number }[] = [];
  try {
    mx = await resolver.resolveMx(domain);
  } catch (error) {
    if (!["ENOTFOUND", "ENODATA"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
  }
  checks.push(
    mx.length > 0
      ? { name: "MX", ok: true, says: mx.map((record) => `${record.exchange} (${record.priority})`).join(", ") }
      : {
          name: "MX",
          ok: false,
          says: `missing: ${domain} receives no mail, so replies and bounces are lost. Add your mail provider's MX record for ${domain}.`,
        },
  );

  const spf = (await txt(resolver, domain)).filter((record) => /^v=spf1(\s|$)/i.test(record));
  const suggestedSpf = `v=spf1 mx${input.smtpHost ? ` a:${input.smtpHost}` : ""} ~all`;
  if (spf.length === 1) checks.push({ name: "SPF", ok: true, says: spf[0]! });
  else if (spf.length === 0)
    checks.push({ name: "SPF", ok: false, says: `missing. Add: ${domain} TXT "${suggestedSpf}" (or your mail provider's include:)` });
  else
    checks.push({
      name: "SPF",
      ok: false,
      says: `${spf.length} SPF records; receivers then treat SPF as failing. Merge them into one TXT record at ${domain}.`,
    });

  if (!input.dkim) {
    checks.push({
      name: "DKIM",
      ok: false,
      says: "no key configured, so mail goes unsigned. Make one: npm run waitlist -- mail dkim-key --selector NAME",
    });
  } else {
    const name = `${input.dkim.keySelector}._domainkey.${input.dkim.domainName}`;
    const wanted = dkimRecord(input.dkim.privateKey);
    const published = (await txt(resolver, name)).filter((record) => /(^|;)\s*p=/.test(record));
    if (published.length === 0) checks.push({ name: "DKIM", ok: false, says: `missing. Add: ${name} TXT "${wanted}"` });
    else if (!published.some((record) => publicKeyOf(record) === publicKeyOf(wanted)))
      checks.push({
        name: "DKIM",
        ok: false,
        says: `the record at ${name} is not the configured key's, so signatures fail. Replace it with: "${wanted}"`,
      });
    else checks.push({ name: "DKIM", ok: true, says: `${name} matches the configured key` });
  }

  const dmarc = (await txt(resolver, `_dmarc.${domain}`)).filter((record) => /^v=DMARC1(\s*;|$)/i.test(record));
  if (dmarc.length === 1) checks.push({ name: "DMARC", ok: true, says: dmarc[0]! });
  else if (dmarc.length > 1)
    checks.push({
      name: "DMARC",
      ok: false,
      says: `${dmarc.length} DMARC records at _dmarc.${domain}; receivers ignore them all. Keep one.`,
    });
  else
    checks.push({
      name: "DMARC",
      ok: false,
      says: `missing. Add: _dmarc.${domain} TXT "v=DMARC1; p=none; rua=mailto:dmarc@${domain}" (p=quarantine once reports look right)`,
    });
  return checks;
}
