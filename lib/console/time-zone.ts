/**
 * Times in the console are shown in the operator's time zone and stored in UTC: the
 * zone saved on their account page, else the browser's (a cookie the console's
 * TimeZoneCookie keeps, components/operator/time-zone-cookie.tsx), else UTC.
 */
import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { getDatabase } from "../db";
import { isTimeZone, UTC } from "./time-format";

/** Set by the browser: only the zone's name, read only by console pages. */
export const TIME_ZONE_COOKIE = "fieldcrew-operator-tz";

type ConsoleTimeZone = { zone: string; from: "account" | "browser" | "default" };

/** The zone this request's pages show times in (once per request). */
export const consoleTimeZone = cache(async (operatorId: string): Promise<ConsoleTimeZone> => {
  const [operator, jar] = await Promise.all([
    getDatabase().operator.findUnique({ where: { id: operatorId }, select: { timeZone: true } }),
    cookies(),
  ]);
  if (operator?.timeZone && isTimeZone(operator.timeZone)) return { zone: operator.timeZone, from: "account" };
  const browser = jar.get(TIME_ZONE_COOKIE)?.value;
  if (browser && isTimeZone(browser)) return { zone: browser, from: "browser" };
  return { zone: UTC, from: "default" };
});
