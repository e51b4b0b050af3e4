/**
 * Unique ids that sort by the time they were made: UUID version 7 (RFC 9562),
 * 48 bits of milliseconds, then 74 random bits.
 *
 * Why: a new sign-up adds its public id and its question's id to two unique
 * indexes of waitlist_entries. With random ids (version 4) each insert lands on
 * a random leaf of a B-tree that, at a million entries, is far larger than the
 * connection's page cache: SQLite reads the leaf back from the OS and writes it
 * out again at the commit, for every row. Ids that grow with time land on the
 * same few leaves at the tree's right edge, which stay in the cache. Measured
 * on a copy of the million-row benchmark database: 86-102 µs of CPU per
 * inserted row with random ids, 50 µs with these (docs/performance.md).
 *
 * Neither id is a secret: the visitor's link is signed (lib/waitlist/entry-link.ts)
 * and so is the question's token, so the random bits only keep ids unique. The
 * time in them is the entry's own sign-up time, or the question's issue time,
 * which its token already carries.
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
