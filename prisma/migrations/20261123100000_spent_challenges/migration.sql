-- CreateTable
CREATE TABLE "spent_challenges" (
    "challenge_id" TEXT NOT NULL PRIMARY KEY,
    "spent_at" DATETIME NOT NULL
);
