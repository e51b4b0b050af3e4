/**
 * Formatting moments for the console in a given IANA time zone (browser-safe, no
 * database): "24 Nov 2026, 09:30 GMT+1". Everything is stored in UTC.
 */
export const UTC = "UTC";

/** A zone Intl knows (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone.length > 64 || !/^[A-Za-z][\w+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Every zone the runtime knows, for the account page's choice. */
export function timeZones(): string[] {
  return [UTC, ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== UTC)];
}

/** A formatter of moments in `zone`: date and time, with the zone's short name. */
export function momentIn(zone: string): (value: Date | string) => string {
  const format = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: zone,
    timeZoneName: "short",
  });
  return (value) => format.format(typeof value === "string" ? new Date(value) : value);
}
