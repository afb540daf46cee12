// The page: sign in, the lobby, a match; a reload resumes the match being played.
import { arena, explain, refusal, setToken } from "./api";
import { BidBoard } from "./bid";
import { h } from "./dom";
import { Game } from "./gen/photofinish/game/v1/game_pb";
import type { MatchAssignment } from "./gen/photofinish/matchmaking/v1/matchmaking_pb";
import { Lobby } from "./lobby";
import { signInScreen } from "./lobby";
import { MatchView, type Board, type MatchContext } from "./match";
import { SpitBoard } from "./spit";
import { forgetMatch, forgetSession, loadMatch, loadSession, saveMatch, saveSession, type CurrentMatch, type Session } from "./store";

const main = document.querySelector("main") ?? document.body;
let current: { stop(): void } | null = null;
let matchView: MatchView | null = null;

function show(node: HTMLElement, controller: { stop(): void } | null): void {
  current?.stop();
  current = controller;
  main.replaceChildren(node);
}

function showSignIn(): void {
  matchView = null;
  show(
    signInScreen(async (name) => {
      try {
        const reply = await arena.signIn({ displayName: name });
        const session: Session = { token: reply.token, playerId: reply.playerId, name: reply.displayName, expiresAtUnix: Number(reply.expiresAtUnix) };
        saveSession(session);
        setToken(session.token);
        showLobby(session);
        return null;
      } catch (error) {
        const why = refusal(error);
        return why.reason === "bad_name" ? "Use 1–24 printable characters." : `Could not sign in: ${explain(why)}`;
      }
    }),
    null,
  );
  main.querySelector<HTMLInputElement>("#name")?.focus();
}

function showLobby(session: Session): void {
  matchView = null;
  const lobby = new Lobby(session, {
    onMatch: (assignment) => startMatch(session, assignment),
    onSignOut: () => {
      forgetSession();
      setToken("");
      showSignIn();
    },
  });
  show(lobby.root, lobby);
  lobby.start();
}

function startMatch(session: Session, assignment: MatchAssignment): void {
  playMatch(session, saveMatch(assignment));
}

function playMatch(session: Session, match: CurrentMatch): void {
  let view: MatchView | null = null;
  const ctx: MatchContext = {
    match,
    session,
    send: (seat, command) => view?.send(seat, command) ?? Promise.resolve(false),
    say: (text, tone) => view?.say(text, tone),
  };
  const makeBoard = (c: MatchContext): Board => (match.game === Game.SPIT ? new SpitBoard(c) : new BidBoard(c));
  view = new MatchView(ctx, makeBoard, () => {
    forgetMatch();
    showLobby(session);
  });
  matchView = view;
  show(view.root, view);
  view.start();
}

function boot(): void {
  const session = loadSession();
  if (!session) return showSignIn();
  setToken(session.token);
  const match = loadMatch();
  if (match) playMatch(session, match);
  else showLobby(session);
}

/** For the browser tests: the page's latest update and the clock figures it displays. */
declare global {
  interface Window {
    __pf: unknown;
  }
}
window.__pf = {
  last: () => matchView?.last() ?? null,
  displayed: () => matchView?.displayed() ?? [],
  probe: () => matchView?.probe() ?? Promise.reject(new Error("no match shown")),
  now: () => performance.now(),
};

document.querySelector("#app-title")?.append(h("span.tagline", " — the server is the only clock"));
boot();
