// The public API over gRPC-web (binary), with the session's token on every call (renewed
// once when refused as expired).
import { create, type Message as ProtoMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb";
import { SubmitRequestSchema } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { Arena } from "./gen/photofinish/client/v1/arena_pb";
import type { CommandSchema } from "./gen/photofinish/game/v1/game_pb";
import { isKey, msg, type Message, type Words } from "./i18n/messages";

export type ArenaClient = Client<typeof Arena>;

/** A refusal as the server stated it: the ErrorInfo reason and its figures. */
export interface Refusal {
  code: Code;
  reason: string;
  message: string;
  metadata: Record<string, string>;
}

/** Where calls get their bearer token (session.ts): a guest's, or an account's access token. */
export interface TokenSource {
  bearer(): Promise<string>; // the token for a call now ("" when nobody is signed in)
  renew(rejected: string): Promise<boolean>; // `rejected` was refused (bad_token): true once a newer one is ready
  lost(): void; // a renewed token was refused as well: the session is over
}

// These take no bearer token: they are how one is got.
const UNSIGNED = new Set(["SignIn", "SignInAccount", "RefreshSession", "BeginPasskeySignIn", "PasskeySignIn"]);
const BAD_TOKEN = "bad_token";
const SESSION_ENDED = "session_ended"; // a stream open when its session was signed out
let tokens: TokenSource = { bearer: async () => "", renew: async () => false, lost: () => undefined };

export function useTokens(source: TokenSource): void {
  tokens = source;
}

/**
 * The bearer token on every call; a call refused `bad_token` (an access token expired, or
 * its session signed out) is sent once more with a renewed token. A server stream's one
 * request message is kept, so that it can be sent again; a stream ended `session_ended`
 * has the token renewed too, which finds the session over.
 */
const bearer: Interceptor = (next) => async (request) => {
  if (UNSIGNED.has(request.method.name)) return next(request);
  const messages: ProtoMessage[] = [];
  if (request.stream) for await (const message of request.message) messages.push(message);
  const send = async (token: string) => {
    if (token) request.header.set("authorization", `Bearer ${token}`);
    else request.header.delete("authorization");
    if (!request.stream) return next(request);
    const response = await next({ ...request, message: replay(messages) });
    return response.stream ? { ...response, message: endingOn(response.message, token) } : response;
  };
  const first = await tokens.bearer();
  try {
    return await send(first);
  } catch (error) {
    if (refusal(error).reason !== BAD_TOKEN || !(await tokens.renew(first))) throw error;
  }
  try {
    return await send(await tokens.bearer());
  } catch (error) {
    if (refusal(error).reason === BAD_TOKEN) tokens.lost();
    throw error;
  }
};

async function* replay<T>(messages: T[]): AsyncIterable<T> {
  yield* messages;
}

async function* endingOn<T>(messages: AsyncIterable<T>, token: string): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (error) {
    if (refusal(error).reason === SESSION_ENDED) void tokens.renew(token);
    throw error;
  }
}

export const arena: ArenaClient = createClient(
  Arena,
  createGrpcWebTransport({
    baseUrl: location.origin,
    useBinaryFormat: true,
    interceptors: [bearer],
  }),
);

/** Return what the server said about a failed call (reason "" for transport failures). */
export function refusal(error: unknown): Refusal {
  const connect = ConnectError.from(error);
  const result: Refusal = { code: connect.code, reason: "", message: connect.rawMessage, metadata: {} };
  const [info] = connect.findDetails(ErrorInfoSchema);
  if (info) {
    result.reason = info.reason;
    result.metadata = { ...info.metadata };
  }
  return result;
}

/** "1 second", "12 seconds": a wait the server asked for, rounded up. */
export function secondsText(ms: number): Message {
  return msg("time.seconds", { count: Math.max(1, Math.ceil(ms / 1000)) });
}

/**
 * The refusal in words for a person: its reason's message in the page's language
 * (`reason.<code>`, every reason the server gives has one), or, for a reason this page does
 * not know yet, the server's own sentence with the reason after it; with no reason, what the
 * connection said.
 */
export function explain(why: Refusal): Words {
  if (!why.reason) return why.message || msg("api.unreachable");
  const key = `reason.${why.reason}`;
  if (isKey(key)) return msg(key, { wait: secondsText(Number(why.metadata["retry_after_ms"] ?? "0")) });
  const prefix = `${why.reason}: `;
  const sentence = why.message.startsWith(prefix) ? why.message.slice(prefix.length) : why.message;
  return sentence ? msg("api.refused", { sentence, reason: why.reason }) : why.reason;
}

/** True when a call failed because the connection did, not because the server refused. */
export function isTransportFailure(error: unknown): boolean {
  const code = ConnectError.from(error).code;
  return code === Code.Unavailable || code === Code.Unknown || code === Code.Internal || code === Code.Canceled;
}

/** Client sequence numbers: increasing per match and seat, also across reloads. */
export function nextClientSeq(matchId: string, seat: number): bigint {
  const key = `pf.seq.${matchId}.${seat}`;
  const stored = BigInt(localStorage.getItem(key) ?? "0");
  const next = stored + 1n;
  localStorage.setItem(key, next.toString());
  return next;
}

/** Send one command; a transport failure is retried with the same client_seq. */
export async function submit(
  matchId: string,
  seat: number,
  command: MessageInitShape<typeof CommandSchema>,
  clientSeq: bigint = nextClientSeq(matchId, seat),
): Promise<void> {
  const request = create(SubmitRequestSchema, { matchId, seat, clientSeq, command });
  for (let attempt = 0; ; attempt++) {
    try {
      await arena.submit(request);
      return;
    } catch (error) {
      if (attempt >= 2 || !isTransportFailure(error) || refusal(error).reason) throw error;
    }
  }
}
