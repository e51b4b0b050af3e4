/**
 * The console's few actions that are not pages: the download, removing an entry,
 * sending a failed delivery again, signing out. Each one checks the session first
 * (no session: nothing read, nothing changed) and, when it changes something,
 * that the form was posted from one of our own pages. Routes in app/api/operator/
 * call these.
 */
import "server-only";
import { getAuth } from "../auth/auth";
import { guardConsole, type ConsoleNeeds } from "../auth/console-guard";
import { safeConsolePath } from "../auth/roles";
import { SIGN_IN_PATH, type SignedInOperator } from "../auth/session";
import { getDatabase, isTemporary } from "../db";
import { errorAnswer, hasContentType, readBoundedText, retryLater, TOO_LARGE, type ErrorCode } from "../http";
import { errorFields, log } from "../log";
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
import { campaignFunnels, campaignsQuerySchema, funnelCsv, pageFunnels, rangeOf } from "../analytics/report";
import { utcDay } from "../time";

/** On every console answer that is not a page: never cached, never indexed. */
const PRIVATE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };

function seeOther(location: string, extra: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: location, ...PRIVATE, ...extra } });
}

type Action = (request: Request, operator: SignedInOperator) => Promise<Response>;

/** What an act needs beyond a session (ConsoleNeeds), with the page a step-up returns to read from the request. */
type Needs = Omit<ConsoleNeeds, "returnTo"> & { returnTo?: (request: Request) => string };

/** A console route's refusal: the sentence as text (a browser shows it), never cached nor indexed. */
function refuse(status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  return errorAnswer(status, code, message, { as: "text", headers: { ...PRIVATE, ...headers } });
}

/**
 * A console route behind the console's guard (lib/auth/console-guard.ts), with faults as answers:
 * a temporary database fault is 503 with Retry-After and nothing changed. A form post whose session
 * ended goes to the sign-in page, one that needs a fresh sign-in to the passkey step-up and back.
 */
function consoleRoute(action: Action, needs: Needs = {}): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      const guard = await guardConsole(request, { permission: needs.permission, fresh: needs.fresh, returnTo: needs.returnTo?.(request) });
      if ("operator" in guard) return await action(request, guard.operator);
      const { refused } = guard;
      if (refused.code === "signed_out" && request.method === "POST") return seeOther(SIGN_IN_PATH);
      if (refused.confirm) return seeOther(refused.confirm);
      return errorAnswer(refused.status, refused.code, refused.message, {
        as: refused.code === "signed_out" ? "json" : "text",
        headers: PRIVATE,
      });
    } catch (error) {
      if (isTemporary(error)) {
        log.warn({ fault: "database_unavailable", ...errorFields(error) }, "console action answered 503: nothing changed");
        return refuse(
          503,
          "temporarily_unavailable",
          "The database is busy, and nothing was changed. Please go back and try again in a moment.",
          retryLater(),
        );
      }
      log.error({ fault: "unexpected", ...errorFields(error) }, "console action failed");
      return refuse(500, "unexpected", "Something went wrong on our side. Please try again later.");
    }
  };
}

/** GET /api/operator/export?format=csv|json&<the list's filters>: streamed, audited. */
export const handleExport = consoleRoute(
  async (request, operator) => {
    const params = new URL(request.url).searchParams;
    const format = params.get("format");
    if (format !== "csv" && format !== "json") return refuse(400, "invalid_choice", "Choose format=csv or format=json.");
    const { query, problems } = parseListQuery(params);
    if (problems.length > 0) return refuse(400, "invalid_filters", `These filters are not valid: ${problems.join("; ")}`);
    const filters = Object.fromEntries(FILTER_KEYS.filter((key) => query[key] !== undefined).map((key) => [key, query[key]]));
    await recordAction(getDatabase(), { actor: operator.actor, action: "export", detail: { format, ...filters } });
    const day = utcDay(new Date());
    return new Response(streamExport(getDatabase(), query, format as ExportFormat), {
      headers: {
        "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="fieldcrew-waitlist-${day}.${format}"`,
        ...PRIVATE,
      },
    });
  },
  { permission: "export", fresh: true, returnTo: (request) => `/operator/entries${listQueryOf(request)}` },
);

/** The list's filters of an export request, as the entries page's query (the step-up returns there). */
function listQueryOf(request: Request): string {
  const params = new URL(request.url).searchParams;
  params.delete("format");
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * GET /api/operator/campaigns?from&to: the Campaigns page's funnel as CSV. Counts only, nothing
 * about a person, so every operator may download it (like the overview they can read).
 */
export const handleCampaignsCsv = consoleRoute(async (request) => {
  const { query } = parseFilters(campaignsQuerySchema, new URL(request.url).searchParams);
  const range = rangeOf(query.from, query.to);
  const database = getDatabase();
  const [campaigns, pages] = await Promise.all([campaignFunnels(database, range), pageFunnels(database, range)]);
  return new Response(funnelCsv(range, campaigns, pages), {
    headers: {
      ...PRIVATE,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="fieldcrew-campaigns-${range.from}-to-${range.to}.csv"`,
    },
  });
});

/** POST /api/operator/entries/:id/remove (the entry page's confirmation form). */
export function handleRemove(request: Request, id: string): Promise<Response> {
  return consoleRoute(
    async (_request, operator) => {
      if (!/^[1-9]\d{0,15}$/.test(id)) return refuse(404, "not_found", "There is no such entry.");
      const removed = await removeById(getDatabase(), Number(id), operator.actor);
      return seeOther(`/operator/entries?removed=${removed ? id : "none"}`);
    },
    {
      permission: "remove_entry",
      fresh: true,
      returnTo: () => (/^[1-9]\d{0,15}$/.test(id) ? `/operator/entries/${id}` : "/operator/entries"),
    },
  )(request);
}

/** POST /api/operator/deliveries/:id/redeliver (a failed delivery on an entry's page). */
export function handleRedeliver(request: Request, deliveryId: string): Promise<Response> {
  return consoleRoute(
    async (_request, operator) => {
      const database = getDatabase();
      const delivery = await database.outboxMessage.findUnique({ where: { id: deliveryId }, select: { entryId: true } });
      if (!delivery) return refuse(404, "not_found", "There is no such delivery.");
      const n = await redeliver(database, { id: deliveryId }, operator.actor);
      return seeOther(`/operator/entries/${delivery.entryId}?done=${n > 0 ? "redelivered" : "not_failed"}`);
    },
    { permission: "redeliver" },
  )(request);
}

/** POST /api/operator/sign-out: the session is deleted, the cookie cleared, and the audit log says so. */
export const handleSignOut = consoleRoute(async (request, operator) => {
  const answer = await getAuth().api.signOut({ headers: request.headers, asResponse: true });
  await recordAction(getDatabase(), { actor: operator.actor, action: "sign_out" });
  const response = seeOther(SIGN_IN_PATH);
  for (const cookie of answer.headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  return response;
});

const ENTRY_ID = /^[1-9]\d{0,15}$/;
/** A console form: up to 200 entry numbers and a 2,000-character note, encoded, fit well within this. */
const MAX_FORM_BYTES = 32 * 1024;

/** A console page's form, read through the shared bounded reader; or the answer saying why not. */
async function consoleForm(request: Request): Promise<URLSearchParams | Response> {
  if (!hasContentType(request, "application/x-www-form-urlencoded"))
    return refuse(415, "unsupported_media_type", "Send the form from its console page.");
  const body = await readBoundedText(request, MAX_FORM_BYTES);
  if (body === TOO_LARGE)
    return refuse(413, "too_large", "That form is too large: change at most 200 entries at once, with a note under 2,000 characters.");
  if (typeof body !== "string")
    return refuse(400, "unreadable_body", "That form could not be read. Please send it again from its console page.");
  return new URLSearchParams(body);
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
export const handleFollowUp = consoleRoute(async (request, operator) => {
  const form = await consoleForm(request);
  if (form instanceof Response) return form;
  const ids = form.getAll("id").map(String);
  if (ids.length === 0) return seeOther(backTo(form, { problem: "none_selected" }));
  if (ids.length > MAX_SELECTION || !ids.every((id) => ENTRY_ID.test(id)))
    return refuse(400, "invalid_choice", `Choose between 1 and ${MAX_SELECTION} entries by their numbers.`);
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
  return refuse(400, "invalid_choice", "Choose an action: change, note or assign.");
});

/** POST /api/operator/time-zone (the account page): the zone the console shows times in, or "" for the browser's. */
export const handleTimeZone = consoleRoute(async (request, operator) => {
  const form = await consoleForm(request);
  if (form instanceof Response) return form;
  const zone = form.get("timeZone") ?? "";
  if (zone !== "" && !isTimeZone(zone)) return seeOther("/operator/account?zone=invalid");
  await getDatabase().operator.update({ where: { id: operator.id }, data: { timeZone: zone || null } });
  return seeOther("/operator/account?zone=saved");
});

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
export const handleAccount = consoleRoute(async (request, operator) => {
  const form = await consoleForm(request);
  if (form instanceof Response) return form;
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
    return refuse(400, "invalid_choice", "Choose what to change: rename-passkey, remove-passkey, end-session or end-other-sessions.");
  return seeOther(
    `/operator/account?done=${outcome}#${intent === "end-session" || intent === "end-other-sessions" ? "sessions" : "passkeys"}`,
  );
});
