// The play socket: one seat of one match on a WebSocket at the gateway's /play
// (proto/photofinish/client/v1/play.proto, docs/protocol.md). The seat's updates come
// as Watch sends them and its commands are answered as Submit answers them.
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb";
import type { MatchUpdate, SubmitReply } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { PlayInSchema, PlayOutSchema, type PlayAnswer, type PlayOut } from "./gen/photofinish/client/v1/play_pb";
import type { Refusal } from "./gen/photofinish/events/v1/events_pb";
import type { CommandSchema } from "./gen/photofinish/game/v1/game_pb";
import { ChangeMissed, KeptView } from "./keptview";

const NORMAL_CLOSE = 1000;
const DOMAIN = "photofinish";

/** The socket closed before a command's answer came: it may ask again elsewhere, same client_seq. */
export class SocketClosed extends Error {
  override name = "SocketClosed";
}

interface Pending {
  resolve(reply: SubmitReply): void;
  reject(error: unknown): void;
}

/** The error a gRPC-web call refused this way would throw: its code, message and ErrorInfo. */
export function refusalError(refusal: Refusal): ConnectError {
  const details = refusal.reason
    ? [{ desc: ErrorInfoSchema, value: { reason: refusal.reason, domain: DOMAIN, metadata: refusal.metadata } }]
    : [];
  return new ConnectError(refusal.message, refusal.code as Code, undefined, details);
}

function playUrl(): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/play`;
}

/** One seat of one match: read `updates()`, send `submit()`, `close()` when done. */
export class PlaySocket {
  private readonly ws: WebSocket;
  private readonly queue: MatchUpdate[] = [];
  private readonly kept = new KeptView(); // updates come as changes: each leaves with its view
  private readonly answers = new Map<bigint, Pending>();
  private wake: (() => void) | null = null;
  private refusal: Error | null = null; // why the conversation ended: the gateway's word, or ChangeMissed
  // undefined while open; then null for a normal end, or the error that ended it.
  private end: Error | null | undefined = undefined;
  private closing = false; // close() was called: close when the last answer is in

  constructor(token: string, matchId: string, seat: number) {
    this.ws = new WebSocket(playUrl());
    this.ws.binaryType = "arraybuffer";
    this.ws.onopen = () => this.send({ kind: { case: "hello", value: { token, matchId, seat } } });
    this.ws.onmessage = (event: MessageEvent) => this.receive(event.data);
    this.ws.onclose = (event: CloseEvent) => this.finish(event.code);
  }

  /** True while commands can go on this socket. */
  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN && this.end === undefined && !this.closing;
  }

  /**
   * The seat's updates: the latest first, then each change, until the match ends.
   * Throws the gateway's refusal (a ConnectError with its reason) when it ended the
   * conversation, an Unavailable ConnectError when the connection was lost, or
   * ChangeMissed when an update's change did not follow the last (the socket is closed:
   * open another, whose first update holds the whole view).
   */
  async *updates(): AsyncGenerator<MatchUpdate> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.end !== undefined) {
        if (this.end) throw this.end;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /**
   * The answer to one command. Rejects with the refusal as a ConnectError, or with
   * SocketClosed when the socket closes before the answer.
   */
  submit(clientSeq: bigint, command: MessageInitShape<typeof CommandSchema>): Promise<SubmitReply> {
    if (!this.isOpen) return Promise.reject(new SocketClosed("the play socket is not open"));
    return new Promise<SubmitReply>((resolve, reject) => {
      this.answers.set(clientSeq, { resolve, reject });
      this.send({ kind: { case: "submit", value: { clientSeq, command } } });
    });
  }

  /** Close once the commands sent on it are answered (the gateway answers each, or ends). */
  close(): void {
    this.closing = true;
    if (this.answers.size === 0) this.ws.close(NORMAL_CLOSE);
  }

  private send(message: MessageInitShape<typeof PlayInSchema>): void {
    this.ws.send(toBinary(PlayInSchema, create(PlayInSchema, message)));
  }

  private receive(data: unknown): void {
    let out: PlayOut;
    try {
      if (!(data instanceof ArrayBuffer)) throw new Error("not binary");
      out = fromBinary(PlayOutSchema, new Uint8Array(data));
    } catch {
      this.refusal = new ConnectError("a message from the gateway is not a PlayOut", Code.Internal);
      this.ws.close();
      return;
    }
    const kind = out.kind;
    if (kind.case === "update") {
      try {
        this.queue.push(this.kept.complete(kind.value));
      } catch (error) {
        if (!(error instanceof ChangeMissed)) throw error;
        this.refusal = error; // what came before it is read first; then the socket ends
        this.ws.close(NORMAL_CLOSE);
      }
      this.wakeReader();
    } else if (kind.case === "answer") {
      this.settle(kind.value);
    } else if (kind.case === "closed") {
      this.refusal = refusalError(kind.value);
    }
  }

  private settle(answer: PlayAnswer): void {
    const pending = this.answers.get(answer.clientSeq);
    if (!pending) return;
    this.answers.delete(answer.clientSeq);
    const outcome = answer.kind;
    if (outcome.case === "reply") pending.resolve(outcome.value);
    else if (outcome.case === "refusal") pending.reject(refusalError(outcome.value));
    else pending.reject(new ConnectError("an answer with neither reply nor refusal", Code.Internal));
    if (this.closing && this.answers.size === 0) this.ws.close(NORMAL_CLOSE);
  }

  private finish(code: number): void {
    this.end =
      this.refusal ??
      (code === NORMAL_CLOSE ? null : new ConnectError(`the play socket closed (code ${code})`, Code.Unavailable));
    for (const pending of this.answers.values()) pending.reject(new SocketClosed("the play socket closed"));
    this.answers.clear();
    this.wakeReader();
  }

  private wakeReader(): void {
    this.wake?.();
    this.wake = null;
  }
}
