/**
 * The console's few actions that are not pages: the downloads, removing an entry, sending a failed
 * delivery again, the follow-up, the account, the time zone, signing out. Each is a handler under
 * route() and the console's guard (lib/site/guards.ts consoleRole), named in its route file in
 * app/api/operator/: the guard has checked the session, the role and where the post came from.
 */
import "server-only";
import { getAuth } from "../auth/auth";
import { safeConsolePath } from "../auth/roles";
import { SIGN_IN_PATH, type SignedInOperator } from "../auth/session";
import { getDatabase } from "../db";
import { ApiError, readForm, seeOther } from "../http";
import { recordAction } from "../audit/trail";
import { streamExport, type ExportFormat } from "./export";
import { FILTER_KEYS, parseListQuery } from "./list";
import { parseFilters } from "../filters";
import { redeliver, removeById } from "./queries";
import {
  addNote,
  assignEntries,
  AssignProblem,
  changeFollowUp,
  changeSchema,
  MAX_SELECTION,
  noteOnlySchema,
  type ChangeResult,
} from "../follow-up/changes";
import { getDeliveryWorker } from "../waitlist/deliveries";
import { isTimeZone } from "./time-format";
import { endOtherSessions, endSession, removePasskey, renamePasskey } from "./account";
import { changeUpdate, UPDATE_ACTIONS, type UpdateAction } from "../updates/updates";
import { campaignFunnels, campaignsQuerySchema, funnelCsv, pageFunnels, rangeOf } from "../analytics/report";
import { utcDay } from "../time";

type Params = Record<string, string>;

/** A console form: up to 200 entry numbers and a 2,000-character note, encoded, fit well within this. */
const MAX_FORM_BYTES = 32 * 1024;

/** A console page's form; an ApiError says what is wrong with it. */
function consoleForm(request: Request): Promise<URLSearchParams> {
  return readForm(request, MAX_FORM_BYTES, "its console page (at most 200 entries at once, with a note under 2,000 characters)");
}

/** GET /api/operator/export?format=csv|json&<the list's filters>: streamed, audited (consoleRole: export, fresh). */
export async function downloadEntries(request: Request, operator: SignedInOperator): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const format = params.get("format");
  if (format !== "csv" && format !== "json") throw new ApiError("invalid_choice", { detail: "Choose format=csv or format=json." });
  const { query, problems } = parseListQuery(params);
  if (problems.length > 0) throw new ApiError("invalid_filters", { detail: problems.join("; ") });
  const filters = Object.fromEntries(FILTER_KEYS.filter((key) => query[key] !== undefined).map((key) => [key, query[key]]));
  await recordAction(getDatabase(), { actor: operator.actor, action: "export", detail: { format, ...filters } });
  const day = utcDay(new Date());
  return new Response(streamExport(getDatabase(), query, format as ExportFormat), {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="fieldcrew-waitlist-${day}.${format}"`,
    },
  });
}

/** Where a step-up for a download returns: the entries page with the download's filters. */
export function exportReturnTo(request: Request): string {
  const params = new URL(request.url).searchParams;
  params.delete("format");
  const query = params.toString();
  return `/operator/entries${query ? `?${query}` : ""}`;
}

/**
 * GET /api/operator/campaigns?from&to: the Campaigns page's funnel as CSV. Counts only, nothing
 * about a person, so every operator may download it (like the overview they can read).
 */
export async function downloadCampaigns(request: Request): Promise<Response> {
  const { query } = parseFilters(campaignsQuerySchema, new URL(request.url).searchParams);
  const range = rangeOf(query.from, query.to);
  const database = getDatabase();
  const [campaigns, pages] = await Promise.all([campaignFunnels(database, range), pageFunnels(database, range)]);
  return new Response(funnelCsv(range, campaigns, pages), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="fieldcrew-campaigns-${range.from}-to-${range.to}.csv"`,
    },
  });
}

const ENTRY_ID = /^[1-9]\d{0,15}$/;

/** Where a step-up for a removal returns: the entry's page (the id from /api/operator/entries/:id/remove). */
export function removalReturnTo(request: Request): string {
  const id = new URL(request.url).pathname.split("/").at(-2) ?? "";
  return ENTRY_ID.test(id) ? `/operator/entries/${id}` : "/operator/entries";
}

/** POST /api/operator/entries/:id/remove (the entry page's confirmation form; consoleRole: remove_entry, fresh). */
export async function removeEntryFromForm(_request: Request, operator: SignedInOperator, { id }: Params): Promise<Response> {
  if (!id || !ENTRY_ID.test(id)) throw new ApiError("not_found", { detail: "There is no such entry." });
  const removed = await removeById(getDatabase(), Number(id), operator.actor);
  return seeOther(`/operator/entries?removed=${removed ? id : "none"}`);
}

/** POST /api/operator/deliveries/:id/redeliver (a failed delivery on an entry's page; consoleRole: redeliver). */
export async function redeliverFromForm(_request: Request, operator: SignedInOperator, { id }: Params): Promise<Response> {
  const database = getDatabase();
  const delivery = id ? await database.outboxMessage.findUnique({ where: { id }, select: { entryId: true } }) : null;
  if (!delivery) throw new ApiError("not_found", { detail: "There is no such delivery." });
  const n = await redeliver(database, { id: id! }, operator.actor);
  return seeOther(`/operator/entries/${delivery.entryId}?done=${n > 0 ? "redelivered" : "not_failed"}`);
}

/** POST /api/operator/sign-out: the session is deleted, the cookie cleared, and the audit log says so. */
export async function signOut(request: Request, operator: SignedInOperator): Promise<Response> {
  const answer = await getAuth().api.signOut({ headers: request.headers, asResponse: true });
  await recordAction(getDatabase(), { actor: operator.actor, action: "sign_out" });
  const response = seeOther(SIGN_IN_PATH);
  for (const cookie of answer.headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  return response;
}

function backTo(form: URLSearchParams, result: Record<string, string | number>): string {
  const url = new URL(safeConsolePath(form.get("return")), "http://console");
  for (const key of ["done", "changed", "already", "refused", "missing", "reason", "problem"]) url.searchParams.delete(key);
  for (const [key, value] of Object.entries(result)) url.searchParams.set(key, String(value));
  return `${url.pathname}${url.search}`;
}

/** What a change came to, counted for the page's message (a fixed sentence per outcome, never free text from the query). */
function tally(to: string, results: ChangeResult[]): Record<string, string | number> {
  const count = (outcome: ChangeResult["outcome"]) => results.filter((result) => result.outcome === outcome).length;
  const refused = results.find((result) => result.outcome === "refused");
  return {
    done: to,
    changed: count("changed"),
    already: count("already"),
    refused: count("refused"),
    missing: count("missing"),
    ...(refused && refused.outcome === "refused" ? { reason: refused.state } : {}),
  };
}

/**
 * POST /api/operator/follow-up (the queue's and an entry page's forms): `action` change
 * (ids, to, closedReason, note), note (one id, note) or assign (ids, assignee: an operator's
 * id, "me" or "none"). Answers with the page it came from, saying what happened.
 */
export async function changeFollowUpFromForm(request: Request, operator: SignedInOperator): Promise<Response> {
  const form = await consoleForm(request);
  const ids = form.getAll("id").map(String);
  if (ids.length === 0) return seeOther(backTo(form, { problem: "none_selected" }));
  if (ids.length > MAX_SELECTION || !ids.every((id) => ENTRY_ID.test(id)))
    throw new ApiError("invalid_choice", { detail: `Choose between 1 and ${MAX_SELECTION} entries by their numbers.` });
  const entryIds = ids.map(Number);
  const database = getDatabase();
  const action = form.get("action");
  if (action === "change") {
    const parsed = changeSchema.safeParse({
      to: form.get("to"),
      closedReason: form.get("closedReason") || undefined,
      note: form.get("note") ?? undefined,
    });
    if (!parsed.success)
      return seeOther(backTo(form, { problem: parsed.error.issues[0]?.path[0] === "closedReason" ? "closed_reason" : "change" }));
    const worker = getDeliveryWorker();
    const results = await changeFollowUp(database, entryIds, parsed.data, operator.actor, { deliveries: worker.deliveryKinds });
    worker.deliverSoon();
    return seeOther(backTo(form, tally(parsed.data.to, results)));
  }
  if (action === "note") {
    const parsed = noteOnlySchema.safeParse({ note: form.get("note") ?? undefined });
    if (!parsed.success || entryIds.length !== 1) return seeOther(backTo(form, { problem: "note" }));
    const added = await addNote(database, entryIds[0]!, parsed.data.note!, operator.actor);
    return seeOther(backTo(form, added ? { done: "noted" } : { problem: "missing" }));
  }
  if (action === "assign") {
    const wanted = String(form.get("assignee") ?? "");
    const assignee = wanted === "me" ? operator.id : wanted === "none" ? null : wanted;
    try {
      const moved = await assignEntries(database, entryIds, assignee, operator.actor);
      return seeOther(backTo(form, { done: "assigned", changed: moved }));
    } catch (error) {
      if (error instanceof AssignProblem) return seeOther(backTo(form, { problem: "assignee" }));
      throw error;
    }
  }
  throw new ApiError("invalid_choice", { detail: "Choose an action: change, note or assign." });
}

/** POST /api/operator/time-zone (the account page): the zone the console shows times in, or "" for the browser's. */
export async function setTimeZone(request: Request, operator: SignedInOperator): Promise<Response> {
  const form = await consoleForm(request);
  const zone = form.get("timeZone") ?? "";
  if (zone !== "" && !isTimeZone(zone)) return seeOther("/operator/account?zone=invalid");
  await getDatabase().operator.update({ where: { id: operator.id }, data: { timeZone: zone || null } });
  return seeOther("/operator/account?zone=saved");
}

const ACCOUNT_OUTCOMES: ReadonlySet<string> = new Set([
  "renamed",
  "removed",
  "last_passkey",
  "no_such_passkey",
  "name",
  "signed_out",
  "signed_out_others",
  "no_such_session",
]);

/**
 * POST /api/operator/account (the account page's forms): `intent` rename-passkey (id, name),
 * remove-passkey (id), end-session (id) or end-other-sessions. The operator's own rows only.
 */
export async function changeAccount(request: Request, operator: SignedInOperator): Promise<Response> {
  const form = await consoleForm(request);
  const database = getDatabase();
  const self = { ...operator.actor, operatorId: operator.id };
  const id = String(form.get("id") ?? "");
  const intent = form.get("intent");
  const outcome =
    intent === "rename-passkey"
      ? await renamePasskey(database, self, id, String(form.get("name") ?? ""))
      : intent === "remove-passkey"
        ? await removePasskey(database, self, id)
        : intent === "end-session"
          ? await endSession(database, self, id, operator.sessionId)
          : intent === "end-other-sessions"
            ? await endOtherSessions(database, self, operator.sessionId)
            : undefined;
  if (!outcome || !ACCOUNT_OUTCOMES.has(outcome))
    throw new ApiError("invalid_choice", {
      detail: "Choose what to change: rename-passkey, remove-passkey, end-session or end-other-sessions.",
    });
  return seeOther(
    `/operator/account?done=${outcome}#${intent === "end-session" || intent === "end-other-sessions" ? "sessions" : "passkeys"}`,
  );
}

/** Where a pause, resume or cancel sends the operator back to (and the step-up page, before it). */
export const UPDATES_PAGE = "/operator/updates";

/** POST /api/operator/updates/:id (the updates page's buttons; consoleRole: send_update, fresh): action=pause|resume|cancel. */
export async function changeUpdateFromForm(request: Request, operator: SignedInOperator, { id }: Params): Promise<Response> {
  if (!id || !ENTRY_ID.test(id)) throw new ApiError("not_found", { detail: "There is no such update." });
  const action = (await readForm(request, 1024, "the updates page")).get("action");
  if (!(UPDATE_ACTIONS as readonly unknown[]).includes(action))
    throw new ApiError("invalid_choice", { detail: "Choose pause, resume or cancel." });
  const outcome = await changeUpdate(getDatabase(), Number(id), action as UpdateAction, operator.actor);
  if (outcome === "missing") throw new ApiError("not_found", { detail: "There is no such update." });
  // Resumed: its rows are due now, not at the next sweep.
  if (outcome === "changed" && action === "resume") getDeliveryWorker().deliverSoon();
  return seeOther(`${UPDATES_PAGE}?update=${id}&${outcome === "changed" ? "done" : "unchanged"}=${String(action)}#update-${id}`);
}
