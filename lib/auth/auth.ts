/**
 * The operator console's authentication: better-auth with its passkey plugin
 * (WebAuthn), its magic-link plugin (a one-time sign-in link by email, only when
 * SMTP is configured) and its Prisma adapter on the site's own database, so every
 * instance sees every session (docs/security.md, "The operator console").
 *
 * What is ours around it:
 * - Nobody signs up. Operators are added from the shell (lib/console/operators.ts);
 *   better-auth is not allowed to create a user at all (the user.create hook), so
 *   its email link cannot make one either.
 * - A first passkey is registered with a one-time enrolment link
 *   (lib/auth/invitations.ts): the token is checked when the ceremony starts and
 *   used up when its result is verified.
 * - Sessions end after SESSION_IDLE_MINUTES without use and SESSION_HOURS after
 *   sign-in whatever happens (lib/auth/session.ts checks both), and at once when the
 *   operator is removed (their sessions are deleted with them).
 * - Sign-in attempts are counted by the site's shared rate limiter (lib/auth/routes.ts),
 *   not better-auth's own, so the limit holds across instances.
 */
import "server-only";
import { errorMessage } from "../http";
import { createHmac } from "node:crypto";
import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, getSessionFromCtx } from "better-auth/api";
import { magicLink } from "better-auth/plugins/magic-link";
import { getDatabase, isTemporary, type Database } from "../db";
import { parseEnv, type Env } from "../env";
import { errorFields, log } from "../log";
import { recordAction } from "../audit/trail";
import { CLIENT_ADDRESS_HEADER } from "../security/client-address";
import { siteSecret } from "../security/secret";
import { singleton } from "../singleton";
import { invitedOperator, spendInvitation } from "./invitations";
import { FRESH_SIGN_IN_MINUTES, isFreshSignIn } from "./roles";
import { sendSignInLink } from "./emails";
import { senderFromEnv } from "../mail/smtp";

/** Where the console's authentication endpoints live (app/api/auth/[...all]/route.ts). */
export const AUTH_BASE_PATH = "/api/auth";
/** A session ends this long after sign-in, used or not. */
const SESSION_HOURS = 12;
/** A session not used for this long has ended. */
export const SESSION_IDLE_MINUTES = 60;
/** An emailed sign-in link is good for this long, once. */
const SIGN_IN_LINK_MINUTES = 15;
/** The session cookie is `<prefix>.session_token` (`__Secure-` in front of it on https). */
export const COOKIE_PREFIX = "fieldcrew-operator";

/** The library's own refusals of the same faults say what route() answers for them (lib/http.ts). */
const FRESH_SIGN_IN_NEEDED = errorMessage("fresh_sign_in_required");
const ENROLMENT_LINK_UNUSABLE = errorMessage("enrolment_link_unusable");

/** The key better-auth signs cookies with: derived from the site's secret, so there is no second secret to manage. */
function authSecret(): string {
  return createHmac("sha256", siteSecret()).update("fieldcrew operator console sessions").digest("hex");
}

/** How a session was made, from the endpoint that made it: kept on the session (a passkey sign-in is fresh for a while) and in the audit log. */
function signInMethod(path: string | undefined): string {
  if (path?.startsWith("/passkey/verify-registration")) return "enrolment";
  if (path?.startsWith("/passkey/verify-authentication")) return "passkey";
  if (path?.startsWith("/magic-link")) return "email link";
  // Not made by a sign-in endpoint: never counted as a fresh passkey sign-in.
  return "other";
}

async function operatorEmail(database: Database, id: string): Promise<string> {
  return (await database.operator.findUnique({ where: { id }, select: { email: true } }))?.email ?? id;
}

/**
 * The emailed link opens our page with a Sign in button rather than better-auth's verify endpoint
 * itself: mail scanners open links, and would use the one-time link up (app/operator/sign-in/email).
 */
function landingPage(site: URL, verifyUrl: string): string {
  const token = new URL(verifyUrl).searchParams.get("token") ?? "";
  return new URL(`/operator/sign-in/email?token=${encodeURIComponent(token)}`, site).toString();
}

type AuthOptions = { env: Env; database: () => Database };

export function createAuth({ env, database }: AuthOptions) {
  const site = new URL(env.SITE_URL);
  const smtp = senderFromEnv(env);

  return betterAuth({
    appName: "FieldCrew operator console",
    baseURL: site.origin,
    basePath: AUTH_BASE_PATH,
    secret: authSecret(),
    database: prismaAdapter(database(), { provider: "sqlite" }),
    user: {
      modelName: "operator",
      // Set from the shell or by an admin (lib/console/operators.ts), never through the library.
      additionalFields: { role: { type: "string", required: false, input: false } },
    },
    session: {
      modelName: "operatorSession",
      expiresIn: SESSION_HOURS * 3600,
      // The absolute limit is the cookie's and the row's expiry; idleness is checked by lib/auth/session.ts.
      disableSessionRefresh: true,
      // The library's own "fresh session" (its sensitive endpoints) agrees with ours (lib/auth/roles.ts).
      freshAge: FRESH_SIGN_IN_MINUTES * 60,
      additionalFields: { signedInWith: { type: "string", required: false, input: false } },
    },
    account: { modelName: "operatorAccount" },
    verification: { modelName: "operatorVerification" },
    emailAndPassword: { enabled: false },
    // Ours (lib/auth/routes.ts) is shared by every instance through the database.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: site.protocol === "https:",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    logger: {
      // The library passes what went wrong after its message: the error, logged with it.
      log(level, message, ...args) {
        const error = args.find((arg) => arg instanceof Error);
        const fields = { component: "auth", ...(error ? errorFields(error) : {}) };
        if (level === "error") log.error({ fault: isTemporary(error) ? "database_unavailable" : "unexpected", ...fields }, message);
        else if (level === "warn") log.warn(fields, message);
      },
    },
    databaseHooks: {
      user: {
        // Operators are added from the shell only; no endpoint may make one.
        create: { before: async () => false },
      },
      session: {
        create: {
          async before(session, context) {
            return { data: { ...session, signedInWith: signInMethod(context?.path) } };
          },
          async after(session, context) {
            const db = database();
            await recordAction(db, {
              actor: { email: await operatorEmail(db, session.userId), operatorId: session.userId },
              action: "sign_in",
              detail: { via: signInMethod(context?.path) },
            });
          },
        },
      },
    },
    plugins: [
      passkey({
        rpID: site.hostname,
        rpName: "FieldCrew operator console",
        origin: site.origin,
        schema: { passkey: { modelName: "operatorPasskey" } },
        authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
        registration: {
          // Enrolment has no session yet: the link's token says who is enrolling.
          requireSession: false,
          async resolveUser({ context }) {
            const operator = await invitedOperator(database(), context ?? "");
            if (!operator) throw new APIError("BAD_REQUEST", { message: ENROLMENT_LINK_UNUSABLE });
            return { id: operator.id, name: operator.email, displayName: operator.name || operator.email };
          },
          async afterVerification({ ctx, user, context }) {
            const db = database();
            // With a token: enrolment, which uses the link up (a race with a second tab loses here).
            // Without one: a signed-in operator adding another passkey, which needs a fresh passkey sign-in
            // (lib/auth/routes.ts checks it before the ceremony starts; this holds it at the end too).
            if (context && !(await spendInvitation(db, context, user.id)))
              throw new APIError("BAD_REQUEST", { message: ENROLMENT_LINK_UNUSABLE });
            if (!context) {
              // The session rule (idleness, removal) has run on this request already (lib/auth/routes.ts).
              const found = await getSessionFromCtx(ctx);
              const session = found?.session as { userId: string; createdAt: Date; signedInWith?: string | null } | undefined;
              if (
                !session ||
                session.userId !== user.id ||
                !isFreshSignIn({ signedInWith: session.signedInWith ?? null, signedInAt: new Date(session.createdAt) })
              ) {
                throw new APIError("FORBIDDEN", { message: FRESH_SIGN_IN_NEEDED });
              }
            }
            await recordAction(db, {
              actor: { email: await operatorEmail(db, user.id), operatorId: user.id },
              action: "passkey_added",
              detail: { via: context ? "enrolment link" : "console" },
            });
            return { userId: user.id };
          },
        },
      }),
      magicLink({
        disableSignUp: true,
        expiresIn: SIGN_IN_LINK_MINUTES * 60,
        storeToken: "hashed",
        async sendMagicLink({ email, url }) {
          // The same answer whether or not the address is an operator's, and nothing sent without SMTP.
          const db = database();
          const operator = await db.operator.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, email: true } });
          if (!operator || !smtp) return;
          await recordAction(db, { actor: { email: operator.email, operatorId: operator.id }, action: "sign_in_link_sent" });
          // Not awaited: how long the mail server takes must not tell anyone whether the address is an operator's.
          sendSignInLink(smtp, operator.email, landingPage(site, url), SIGN_IN_LINK_MINUTES).catch((error: unknown) =>
            log.error({ fault: "sign_in_mail_failed", ...errorFields(error) }, "sending an operator's sign-in link failed"),
          );
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The process's one instance, for the running site (made on first use, never at build time). */
export function getAuth(): Auth {
  return singleton("operator auth", () => createAuth({ env: parseEnv(), database: getDatabase }));
}
