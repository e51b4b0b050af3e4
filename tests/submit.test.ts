/**
 * The browser's submit module against the real route handler and a real SQLite
 * file: each answer becomes the spec's catalogue message (section 8).
 */
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/waitlist/route";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { submitSignup } from "@/lib/waitlist/submit";
import { setUpTestDatabase } from "./support/database";
import { validSignup } from "./support/requests";

setUpTestDatabase();

const throughRoute: typeof fetch = (input, init) => POST(new Request(new URL(String(input), "http://localhost:3000"), init));

describe("submitSignup", () => {
  it("reports success, then the already-on-the-list message for the same email", async () => {
    const signup = waitlistSignupSchema.parse(validSignup({ email: "twice@example.com" }));
    expect(await submitSignup(signup, throughRoute)).toEqual({ ok: true });
    expect(await submitSignup({ ...signup, email: "TWICE@example.com" }, throughRoute)).toEqual({
      ok: false,
      message: "This email is already on our waitlist. We'll be in touch soon!",
    });
  });

  it("shows the generic message, with the server's field errors, for an invalid sign-up", async () => {
    const signup = { ...waitlistSignupSchema.parse(validSignup()), phone: "12" };
    expect(await submitSignup(signup, throughRoute)).toEqual({
      ok: false,
      message: "Something went wrong. Please try again or contact us directly.",
      fields: { phone: "Enter a phone number with 7 to 15 digits." },
    });
  });

  it("shows the generic message when the network fails or the answer is not JSON", async () => {
    const signup = waitlistSignupSchema.parse(validSignup());
    const offline: typeof fetch = () => Promise.reject(new TypeError("Failed to fetch"));
    const proxyPage: typeof fetch = async () => new Response("<html>Bad gateway</html>", { status: 502 });
    for (const failing of [offline, proxyPage]) {
      expect(await submitSignup(signup, failing)).toEqual({
        ok: false,
        message: "Something went wrong. Please try again or contact us directly.",
      });
    }
  });
});
