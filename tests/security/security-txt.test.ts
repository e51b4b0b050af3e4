/**
 * /.well-known/security.txt (RFC 9116, issue 62), through the real route: Contact from
 * SECURITY_CONTACT, Expires about a year ahead and never in the past, Canonical at the address the
 * site runs at, Preferred-Languages; a GET only.
 */
import { describe, expect, it } from "vitest";
import * as route from "@/app/.well-known/security.txt/route";
import { parseEnv } from "@/lib/env";
import { securityTxt } from "@/lib/security/security-txt";

const fieldsOf = (text: string) =>
  Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((line) => line.split(/: (.*)/s).slice(0, 2)),
  );

describe("/.well-known/security.txt", () => {
  it("says whom to tell, until when, where it lives and in what language", async () => {
    const answer = await route.GET(new Request("http://localhost:3000/.well-known/security.txt"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const fields = fieldsOf(await answer.text());
    expect(Object.keys(fields)).toEqual(["Contact", "Expires", "Canonical", "Preferred-Languages"]);
    expect(fields.Contact).toBe("mailto:hello@fieldcrew.app");
    expect(fields.Canonical).toBe(new URL("/.well-known/security.txt", parseEnv().SITE_URL).toString());
    expect(fields["Preferred-Languages"]).toBe("en");
    const expires = Date.parse(fields.Expires!);
    expect(fields.Expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(expires - Date.now()).toBeGreaterThan(360 * 86_400_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(366 * 86_400_000);
  });

  it("takes its Contact from SECURITY_CONTACT, refuses one that is not an address, and its Expires follows the day it is asked", () => {
    const env = parseEnv({ SECURITY_CONTACT: "https://fieldcrew.example/security", SITE_URL: "https://fieldcrew.example" });
    const later = new Date("2031-06-01T00:00:00Z");
    const fields = fieldsOf(securityTxt(env, later));
    expect(fields.Contact).toBe("https://fieldcrew.example/security");
    expect(fields.Expires).toBe("2032-05-31T00:00:00Z");
    expect(() => parseEnv({ SECURITY_CONTACT: "security team" })).toThrow(/SECURITY_CONTACT: must be a mailto: or https: address/);
  });

  it("takes GET only", async () => {
    const answer = await route.POST(new Request("http://localhost:3000/.well-known/security.txt", { method: "POST" }));
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD");
  });
});
