-- Roles, fresh sign-ins and passkeys' last use (issue 30, docs/security.md "The operator console").
-- Added in place, as the other console migrations are.

-- admin: manage operators, export, remove entries, edit the invitation; member: the queue, notes,
-- follow-up and the list. Operators who existed before roles keep what they could do: admin.
ALTER TABLE "operators" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'member';
UPDATE "operators" SET "role" = 'admin';

-- How the session was made (passkey, enrolment, email link): a dangerous act needs a session made
-- with a passkey within the last 10 minutes. Older sessions keep NULL, which is never fresh.
ALTER TABLE "operator_sessions" ADD COLUMN "signed_in_with" TEXT;

-- When the passkey last signed someone in (the account page shows it).
ALTER TABLE "operator_passkeys" ADD COLUMN "last_used_at" DATETIME;
