/**
 * The server's answers to clients that break HTTP or pass a deadline (lib/site/client-errors.ts),
 * on a real node:http server with the deadlines shortened: a connection not yet read from when
 * the header deadline passes is kept and served, one that never sends is closed after the grace,
 * and everything else is answered as Node answers it.
 */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientErrors } from "@/lib/site/client-errors";

const HEADERS_TIMEOUT_MS = 1_000;
const GRACE_MS = 1_500;

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: 2_000, connectionsCheckingInterval: 100, maxHeaderSize: 1024 },
    (_request, response) => response.end("served"),
  );
  answerClientErrors(server, GRACE_MS);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A connection, what it has received so far, and when the server closed it (ms after it opened; 0 while open). */
async function open(): Promise<{ socket: Socket; received: () => string; closedAfter: () => number }> {
  const opened = Date.now();
  const socket = connect({ host: "127.0.0.1", port });
  let received = "";
  let closedAt = 0;
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  socket.on("error", () => {});
  socket.on("close", () => (closedAt = Date.now()));
  await new Promise((resolve) => socket.once("connect", resolve));
  return { socket, received: () => received, closedAfter: () => (closedAt ? closedAt - opened : 0) };
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await sleep(20);
}

const REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

describe("a connection the server has not read from when the header deadline passes", () => {
  it("is kept, and its request is served when it comes", async () => {
    const client = await open();
    await sleep(HEADERS_TIMEOUT_MS + 500);
    expect(client.closedAfter(), "closed before its request came").toBe(0);
    client.socket.write(REQUEST);
    await until(() => client.received().includes("served"), 2_000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    client.socket.destroy();
  });

  it("is closed with a 408 once the grace has passed, if it never sends a byte", async () => {
    const client = await open();
    await until(() => client.closedAfter() > 0, HEADERS_TIMEOUT_MS + GRACE_MS + 2_000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(client.closedAfter()).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS + GRACE_MS);
  });

  it("has its first byte start the header deadline afresh: headers sent a byte at a time are cut off with a 408", async () => {
    const client = await open();
    await sleep(HEADERS_TIMEOUT_MS + 300);
    const firstByteAt = Date.now();
    const opened = firstByteAt - (HEADERS_TIMEOUT_MS + 300);
    for (const byte of "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa") {
      if (client.closedAfter()) break;
      client.socket.write(byte);
      await sleep(100);
    }
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    // Cut off about a deadline after its first byte, not held for the grace.
    expect(opened + client.closedAfter() - firstByteAt).toBeLessThan(HEADERS_TIMEOUT_MS + 1_000);
  });
});

describe("everything else, as Node answers it", () => {
  it("headers that began and never ended: 408 at the deadline", async () => {
    const client = await open();
    client.socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await until(() => client.closedAfter() > 0, HEADERS_TIMEOUT_MS + 2_000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(client.closedAfter()).toBeLessThan(HEADERS_TIMEOUT_MS + 1_000);
  });

  it("headers over the limit: 431", async () => {
    const client = await open();
    client.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Large: ${"x".repeat(2_048)}\r\n\r\n`);
    await until(() => client.closedAfter() > 0, 2_000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  });

  it("something that is not HTTP: 400", async () => {
    const client = await open();
    client.socket.write("HELLO\r\n\r\n");
    await until(() => client.closedAfter() > 0, 2_000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it("a request served, then kept alive: the next one is served too", async () => {
    const client = await open();
    client.socket.write(REQUEST);
    await until(() => client.received().includes("served"), 2_000);
    client.socket.write(REQUEST);
    await until(() => client.received().split("served").length === 3, 2_000);
    expect(client.received().match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    client.socket.destroy();
  });
});
