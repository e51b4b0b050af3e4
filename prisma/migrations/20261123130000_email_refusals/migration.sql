-- CreateTable
CREATE TABLE "email_refusals" (
    "day" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    PRIMARY KEY ("day", "reason", "domain")
);
