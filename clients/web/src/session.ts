// Who is signed in, and the token every call carries. A guest's token is kept in
// localStorage, as it always was. An account keeps its session and refresh token there and
// its access token in memory only; the access token is refreshed at 80% of its life, and
// after a `bad_token` refusal. A refresh token is used up by a refresh, and one spent twice
// ends the whole session (`refresh_reused`), so the tabs of a browser refresh one at a time
// (the Web Lock "pf-refresh"), each re-reading the newest refresh token inside the lock
// (newest.ts: IndexedDB, which every tab reads alike), and hand the access token they got
// to the other tabs (a BroadcastChannel, memory to memory).
import type { CallOptions } from "@connectrpc/connect";
import { arena, refusal, type Refusal, type TokenSource } from "./api";
import type { AccountSession } from "./gen/photofinish/client/v1/account_pb";
import { forgetNewest, readNewest, writeNewest } from "./newest";
import { forgetSession, loadSession, saveSession, whyForgotten, type Session } from "./store";

const LOCK = "pf-refresh";
const CHANNEL = "pf-access";
const REFRESH_AT = 0.8; // of an access token's life
const EXPIRING_MS = 2000; // a token this close to its expiry is renewed before a call
const SOONEST_MS = 1000; // the earliest a refresh is planned after the last one
const SKEW_IGNORED_MS = 2000; // the server's Date header has whole seconds

/** A refresh refused for one of these reasons: the session is over, sign in again. */
export const SESSION_OVER = new Set(["session_ended", "refresh_reused", "refresh_expired", "refresh_unknown"]);

/** True when a play socket or a stream was refused for its token: renew it, or sign out. */
export function isTokenRefusal(why: Refusal): boolean {
  return why.reason === "bad_token" || why.reason === "session_ended";
}

/** An access token in this tab's memory, with this device's clock's idea of its life. */
interface Access {
  sessionId: string;
  token: string;
  refreshAtMs: number;
  expiresAtMs: number;
}

/** One refresh as this tab saw it, for the browser tests: refreshed, taken from another tab, or the refusal. */
export interface RefreshRecord {
  atMs: number;
  outcome: string;
}

/** Why a session ended here: a refusal's reason, or `another_tab` (signed out there). */
export type Ended = (why: string) => void;

export class SessionTokens implements TokenSource {
  readonly refreshes: RefreshRecord[] = [];
  private session: Session | null = null;
  private access: Access | null = null;
  private timer = 0;
  private ended: Ended = () => undefined;
  private readonly channel = "BroadcastChannel" in window ? new BroadcastChannel(CHANNEL) : null;

  constructor() {
    this.channel?.addEventListener("message", (event: MessageEvent<Access>) => this.heard(event.data));
    document.addEventListener("visibilitychange", () => this.woke());
  }

  /** Call `ended` whenever the session ends by itself (refused, signed out elsewhere). */
  onEnded(ended: Ended): void {
    this.ended = ended;
  }

  current(): Session | null {
    return this.session;
  }

  /** Take a stored guest or account session (an account's access token is fetched now). */
  resume(session: Session): void {
    this.forget();
    this.session = session;
    if (session.account) void this.renew("");
  }

  /** A guest just signed in: keep its session. */
  signedInGuest(session: Session): void {
    this.forget();
    saveSession(session);
    this.session = session;
  }

  /** Sign up, in or refresh with `call` (its options read the server's clock); keep what it gives. */
  async signInWith(call: (options: CallOptions) => Promise<AccountSession>): Promise<Session> {
    let date = "";
    const reply = await call({ onHeader: (header) => (date = header.get("date") ?? "") });
    const session = this.signedIn(reply, skewOf(date));
    await writeNewest({ sessionId: reply.sessionId, refreshToken: reply.refreshToken }); // before the lock goes
    return session;
  }

  /** For the browser tests: refresh now, as if the access token had been refused. */
  refreshNow(): Promise<boolean> {
    return this.renew(this.access?.token ?? "");
  }

  /** An account's session, its access token in memory (skewMs: the server's clock ahead of ours). */
  private signedIn(reply: AccountSession, skewMs: number): Session {
    const session: Session = {
      token: "",
      playerId: reply.playerId,
      name: reply.username,
      expiresAtUnix: Number(reply.refreshExpiresAtUnix),
      account: { sessionId: reply.sessionId, refreshToken: reply.refreshToken },
      ...(reply.operator ? { operator: true } : {}),
    };
    saveSession(session);
    this.session = session;
    const now = Date.now();
    const expiresAtMs = Number(reply.accessExpiresAtUnix) * 1000 - skewMs;
    const access = { sessionId: reply.sessionId, token: reply.accessToken, expiresAtMs, refreshAtMs: now + Math.max(SOONEST_MS, REFRESH_AT * (expiresAtMs - now)) };
    this.use(access);
    this.channel?.postMessage(access);
    return session;
  }

  /** Signed out here: forget the session, stored (other tabs are told `why`) and in memory. */
  signOut(why = "another_tab"): void {
    const sessionId = this.session?.account?.sessionId;
    if (sessionId) void forgetNewest(sessionId);
    if (this.session && isSame(loadSession(), this.session)) forgetSession(why);
    this.forget();
  }

  async bearer(): Promise<string> {
    const session = this.session;
    if (!session?.account) return session?.token ?? "";
    if (!this.access || Date.now() >= this.access.expiresAtMs - EXPIRING_MS) await this.renew(this.access?.token ?? "");
    return this.access?.token ?? "";
  }

  async renew(rejected: string): Promise<boolean> {
    if (!this.session) return false;
    if (!this.session.account) {
      this.end("bad_token"); // a guest's token cannot be renewed
      return false;
    }
    const locks = navigator.locks as LockManager | undefined; // none outside a secure context
    const run = () => this.refreshUnlessDone(rejected);
    return locks ? locks.request(LOCK, run) : run();
  }

  lost(): void {
    this.end("bad_token");
  }

  /** Another tab changed the stored session: follow it (signed out there, or someone else in). */
  storageChanged(): void {
    const stored = loadSession();
    if (isSame(stored, this.session)) return;
    if (this.session && !stored) this.end(whyForgotten());
    else location.reload();
  }

  /** Inside the lock: refresh, unless another tab did meanwhile and handed its token over. */
  private async refreshUnlessDone(rejected: string): Promise<boolean> {
    const stored = loadSession();
    if (!this.session || !isSame(stored, this.session) || !stored?.account) {
      if (this.session) this.storageChanged();
      return false;
    }
    const access = this.access;
    if (access && access.token !== rejected && Date.now() < access.refreshAtMs) {
      this.record("taken from another tab");
      return true;
    }
    try {
      const refreshToken = (await readNewest(stored.account.sessionId)) ?? stored.account.refreshToken;
      await this.signInWith((options) => arena.refreshSession({ refreshToken }, options));
      this.record("refreshed");
      return true;
    } catch (error) {
      const why = refusal(error);
      this.record(why.reason || "unreachable");
      if (SESSION_OVER.has(why.reason)) this.end(why.reason);
      return false;
    }
  }

  private use(access: Access): void {
    this.access = access;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.renew(access.token), Math.max(0, access.refreshAtMs - Date.now()));
  }

  /** Another tab refreshed this session: its access token serves here too. */
  private heard(access: Access): void {
    const mine = this.session?.account;
    if (mine?.sessionId === access.sessionId && access.expiresAtMs > (this.access?.expiresAtMs ?? 0)) this.use(access);
  }

  /** A tab in the background may have slept through its timer. */
  private woke(): void {
    const access = this.access;
    if (document.visibilityState === "visible" && access && Date.now() >= access.refreshAtMs) void this.renew(access.token);
  }

  private end(why: string): void {
    this.signOut(why);
    this.ended(why);
  }

  private forget(): void {
    window.clearTimeout(this.timer);
    this.session = null;
    this.access = null;
  }

  private record(outcome: string): void {
    this.refreshes.push({ atMs: Date.now(), outcome });
  }
}

/** True when both name the same sign-in: a guest's token, or an account's session. */
function isSame(a: Session | null, b: Session | null): boolean {
  if (!a || !b) return a === b;
  return a.account || b.account ? a.account?.sessionId === b.account?.sessionId : a.token === b.token;
}

/** How far the server's clock is ahead of this device's (0 when within the header's precision). */
function skewOf(date: string): number {
  const server = Date.parse(date);
  const skew = Number.isNaN(server) ? 0 : server - Date.now();
  return Math.abs(skew) < SKEW_IGNORED_MS ? 0 : skew;
}

export const tokens = new SessionTokens();
