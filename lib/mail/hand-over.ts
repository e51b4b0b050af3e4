/**
 * Sending a message so that an instance that dies mid-send never sends it twice. A mail server
 * takes a message when its data ends (the lone "." after it, RFC 5321 4.1.1.4); a connection that
 * drops before that leaves it untaken. So the data flows as usual, and only its end waits until
 * the outbox row is marked handed over (HandOver, lib/outbox/worker.ts). Dead before the mark: the
 * server took nothing, and the row is tried again. Dead after it: the server has every byte but
 * the end, or the whole message, and the row is taken as delivered. The one message that can be
 * lost is one whose instance dies in the microseconds between the mark's answer and the end
 * leaving the socket; none can be sent twice.
 *
 * DKIM signs the whole message before it lets any of it go (the signature is a header), so this
 * transport signs it itself, before the hold: nodemailer would put its own signer after it.
 */
import { pipeline, Transform, type TransformCallback } from "node:stream";
import DKIM from "nodemailer/lib/dkim";
import type Mail from "nodemailer/lib/mailer";
import type { DkimSettings } from "./dkim";

/** Asks for the mark; true once it is made (lib/outbox/worker.ts HandOver). */
type HandOver = () => Promise<boolean>;

/** What sendMail takes beside nodemailer's own options: the row's hand-over, when the message must wait for it. */
export type HeldMessage = Mail.Options & { handOver?: HandOver };

/** Passes the message through, and ends it only once the hand-over is marked; a refused one fails the send unfinished. */
class EndAfterHandOver extends Transform {
  constructor(private readonly handOver: HandOver) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    callback(null, chunk);
  }
  override _flush(callback: TransformCallback): void {
    this.handOver().then(
      (marked) => callback(marked ? null : new Error("the delivery's claim was lost before its message was finished")),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/**
 * Makes `transport` (created without nodemailer's own `dkim` option) sign each message with `dkim`
 * and, for a message sent with `handOver`, end its data only once the row is marked.
 */
export function endAfterHandOver(transport: Mail, dkim: (DkimSettings & { headerFieldNames: string }) | null): void {
  const signer = dkim ? new DKIM(dkim) : null;
  transport.use("stream", (mail, done) => {
    if (signer) mail.message.processFunc((input) => signer.sign(input));
    const { handOver } = mail.data as HeldMessage;
    // pipeline: an error of the message's own stream fails the send, as without the hold.
    if (handOver) mail.message.processFunc((input) => pipeline(input, new EndAfterHandOver(handOver), () => {}));
    done();
  });
}
