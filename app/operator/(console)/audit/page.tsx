import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { buttonClasses } from "@/components/ui/button-styles";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { listActions } from "@/lib/audit/trail";
import { momentIn } from "@/lib/console/time-format";
import { consoleTimeZone } from "@/lib/console/time-zone";

export const metadata: Metadata = { title: "Audit log" };

const PAGE = 50;

type Props = { searchParams: Promise<{ before?: string }> };

export default async function AuditPage({ searchParams }: Props) {
  const operator = await requireOperator("read_audit");
  const { before } = await searchParams;
  const cursor = before && /^[1-9]\d{0,15}$/.test(before) ? Number(before) : undefined;
  const [rows, { zone }] = await Promise.all([listActions(getDatabase(), { limit: PAGE, before: cursor }), consoleTimeZone(operator.id)]);
  const when = momentIn(zone);
  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/audit">
      <ConsoleHeading title="Audit log">
        Every operator action, in the console and at the shell, newest first. Times are {zone}.
      </ConsoleHeading>
      {rows.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-600">Nothing yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  When
                </th>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  Who
                </th>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  What
                </th>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  Entry
                </th>
                <th scope="col" className="hidden px-3 py-2.5 font-medium md:table-cell">
                  Details
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-slate-100">
                  <td className="px-3 py-2.5 whitespace-nowrap tabular-nums text-slate-600">{when(row.at)}</td>
                  <td className="px-3 py-2.5 break-all">{row.actor}</td>
                  <td className="px-3 py-2.5">{row.label}</td>
                  <td className="px-3 py-2.5">
                    {row.entryId !== null && (
                      <a href={`/operator/entries/${row.entryId}`} className="underline">
                        #{row.entryId}
                      </a>
                    )}
                  </td>
                  <td className="hidden px-3 py-2.5 font-mono text-xs break-all text-slate-600 md:table-cell">{row.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length === PAGE && (
        <nav aria-label="Pages" className="mt-4 flex justify-end">
          <a href={`/operator/audit?before=${rows.at(-1)!.id}`} className={buttonClasses("outline", "sm")}>
            Older →
          </a>
        </nav>
      )}
    </ConsoleFrame>
  );
}
