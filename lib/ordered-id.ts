/**
 * Ids that sort by the time they were made (UUID v7): new keys land at the right edge of their
 * unique indexes, which stay in the page cache, where random ids cost a disk read per insert at a
 * million rows (docs/performance.md). None is a secret: links and tokens are signed.
 */
import "server-only";
import { v7 } from "uuid";

/**
 * A UUID whose text sorts by creation time: an entry's public id, a security
 * question's id, an outbox row's id. (Kept as hex text: base64url's alphabet is
 * not in ASCII order, so its text would not sort by time.)
 */
export function orderedUuid(): string {
  return v7();
}
