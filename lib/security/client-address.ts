/**
 * Which address a request came from, decided once by the site's server
 * (server.ts) and handed to the app in a header that the server always
 * overwrites, so a visitor cannot choose their own rate-limit bucket.
 *
 * Each proxy appends the address it received the request from to
 * X-Forwarded-For, and server.ts appends the address of the socket. With
 * `trustedHops` proxies in front of us, the client is the entry that many
 * places from the right; anything further left was written by the client and
 * is ignored. With no trusted proxy, it is the socket's address.
 */
import "server-only";
export const CLIENT_ADDRESS_HEADER = "x-fieldcrew-client-address";

/** What the rate limit keys on when a request did not come through server.ts. */
export const UNKNOWN_CLIENT = "unknown";

export function clientAddressOf(
  forwardedFor: string | string[] | undefined,
  socketAddress: string | undefined,
  trustedHops: number,
): string {
  const chain = [forwardedFor ?? []]
    .flat()
    .flatMap((header) => header.split(","))
    .map((entry) => entry.trim())
    .filter(Boolean);
  chain.push(socketAddress || UNKNOWN_CLIENT);
  // Never further left than the chain goes: a request that passed fewer
  // proxies than configured is keyed on the leftmost address it has.
  const index = Math.max(0, chain.length - 1 - trustedHops);
  return normalizeAddress(chain[index]!);
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
function normalizeAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").toLowerCase();
}
