import { getDb } from "../db";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { normalizeEmail, type WaitlistSignup } from "./schema";

export type StoreOutcome = "created" | "duplicate";

/**
 * Inserts a sign-up. Whether the email is already on the list is decided by the
 * unique index on email_normalized inside the insert itself, never by a read
 * before the write, so two simultaneous sign-ups with one address store one row.
 */
export async function addToWaitlist(
  signup: WaitlistSignup,
  db: PrismaClient = getDb(),
): Promise<StoreOutcome> {
  try {
    await db.waitlistEntry.create({
      data: {
        companyName: signup.company_name,
        contactName: signup.contact_name,
        email: signup.email,
        emailNormalized: normalizeEmail(signup.email),
        phone: signup.phone,
        businessType: signup.business_type,
        companySize: signup.company_size,
        notes: signup.notes,
      },
      select: { id: true },
    });
    return "created";
  } catch (error) {
    // With driver adapters meta.target is missing; the only unique column is the email.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return "duplicate";
    }
    throw error;
  }
}
