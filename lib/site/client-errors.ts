/**
 * What the server answers when a client breaks HTTP or passes a deadline (Node's 'clientError'):
 * what Node itself answers (431, 413, 408 or 400, then the connection closed), except for one case.
 *
 * Node starts a new connection's header deadline when it accepts it, and a request's first byte
 * starts it again. Under a flood of new connections the server may not read some of them before
 * the deadline from accept has passed (a fault test's 3,000 sign-ups at once on a busy 2-core
 * machine: 35 connections unread after 20 s). Node then closed them with their requests unread,
 * and the kernel answered those clients with a reset: no 503, no Retry-After, nothing. So a
 * connection the server has not read a byte from when the deadline passes stays open, as an idle
 * kept-alive one does: its first byte starts Node's deadlines afresh, and one that sends nothing
 * is closed UNREAD_GRACE_MS later (at 65 s from accept with the 20 s header deadline, as long as an
 * idle kept-alive connection is kept).
 */
import "server-only";
import type { Server } from "node:http";
import type { Socket } from "node:net";

/** How long a connection that has sent nothing is kept past Node's header deadline. */
const UNREAD_GRACE_MS = 45_000;

/** Node's answers to a client error, by its code (node's lib/_http_server.js); 400 for the rest. */
const ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
  ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
};

export function answerClientErrors(server: Server, unreadGraceMs = UNREAD_GRACE_MS): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT" && socket.bytesRead === 0) {
      // Node reports a connection past its deadline once and then leaves it to this handler.
      setTimeout(() => {
        if (socket.bytesRead === 0) refuse(socket, error);
      }, unreadGraceMs).unref();
      return;
    }
    refuse(socket, error);
  });
}

/** As Node does: its answer, unless a response has begun on the connection, and the connection closed. */
function refuse(socket: Socket, error: NodeJS.ErrnoException): void {
  // The response the connection is serving, if any (Node's own field; its answer would corrupt one begun).
  const serving = (socket as Socket & { _httpMessage?: { headersSent: boolean } | null })._httpMessage;
  if (socket.writable && !serving?.headersSent)
    socket.write(`HTTP/1.1 ${ANSWERS[error.code ?? ""] ?? "400 Bad Request"}\r\nConnection: close\r\n\r\n`);
  socket.destroy(error);
}
