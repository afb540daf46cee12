// The page: sign in, the lobby, a match, a tournament; a reload resumes the match being
// played, and a followed tournament takes the player to each of their games by itself; a
// session that ends (here, in another tab or on another device) goes back to sign-in.
import { ACCOUNT_DELETED, SIGNED_OUT_EVERYWHERE, signedOutText } from "./accountwords";
import { arena, useTokens } from "./api";
import { BidBoard } from "./bid";
import { DevicesPage } from "./devices";
import { h } from "./dom";
import { chosenLanguage, languageMenu } from "./i18n/choice";
import { relabelPage } from "./i18n/live";
import { msg, t, useLanguage, type Catalog, type Key, type Words } from "./i18n/messages";
import { TournamentBar, TournamentFollower, pointsText } from "./following";
import { Status } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { Game } from "./gen/photofinish/game/v1/game_pb";
import type { MatchAssignment } from "./gen/photofinish/matchmaking/v1/matchmaking_pb";
import { LivePage } from "./live";
import { Lobby } from "./lobby";
import { MatchView, type Board, type MatchContext } from "./match";
import { FairPlayPage } from "./fairplay";
import { GamesPage } from "./mygames";
import { ProfilePage } from "./profile";
import { ReplayPage, replayHash } from "./replay";
import { tokens } from "./session";
import { keepGamesScreen, signInScreen } from "./signin";
import { SpectatorView } from "./spectate";
import { SpitBoard } from "./spit";
import {
  SESSION_KEY,
  forgetFollowed,
  forgetMatch,
  loadFollowed,
  loadMatch,
  loadSession,
  saveFollowed,
  saveMatch,
  type CurrentMatch,
  type Followed,
  type Session,
} from "./store";
import { TournamentPage } from "./tournamentpage";

// The app shell offline (sw.js keeps the page and its files, never game data). Registered
// from here, not an inline script: the Content-Security-Policy allows this origin's files only.
if ("serviceWorker" in navigator) addEventListener("load", () => navigator.serviceWorker.register("/sw.js"));

const main = document.querySelector("main") ?? document.body;
const barHost = h("div.bar-host");
const content = h("div.content");
main.replaceChildren(barHost, content);
let current: { stop(): void } | null = null;
let matchView: MatchView | null = null;
let spectator: SpectatorView | null = null; // the live match being watched
let shownMatch: CurrentMatch | null = null;
let replayPage: ReplayPage | null = null; // the replay shown, for the browser tests
let follower: TournamentFollower | null = null;
let bar: TournamentBar | null = null;

function show(node: HTMLElement, controller: { stop(): void } | null): void {
  current?.stop();
  spectator = controller instanceof SpectatorView ? controller : null;
  current = controller;
  content.replaceChildren(node);
}

/** The sign-in screen; `notice` says why the last session ended ("" for none). */
function showSignIn(notice: Words = ""): void {
  matchView = null;
  shownMatch = null;
  show(signInScreen(notice, showLobby), null);
  main.querySelector<HTMLElement>(notice ? "#signed-out" : "#name")?.focus();
}

/** Signed out, by the player here (`notice` ""), or because the session ended elsewhere. */
function signedOut(notice: Words): void {
  unfollow();
  forgetMatch();
  tokens.signOut();
  showSignIn(notice);
}

function showLobby(session: Session): void {
  matchView = null;
  shownMatch = null;
  const lobby = new Lobby(session, {
    onMatch: (assignment, level) => startMatch(session, assignment, undefined, level),
    onSignOut: () => {
      // An account's session ends at the server too, so that its refresh token is dead.
      const ending = session.account ? arena.signOut({}).catch(() => undefined) : Promise.resolve();
      void ending.then(() => signedOut(""));
    },
    keepGames: () => showKeepGames(session),
    devices: () => showDevices(session),
    watchLive: () => showLive(session),
    fairPlay: () => showFairPlay(session),
    myGames: () => showGames(session, session.playerId, session.name),
    playerGames: (playerId, name) => showGames(session, playerId, name),
    profile: (playerId, name) => showProfile(session, playerId, name),
    tournaments: {
      open: (tournamentId) => showTournament(session, tournamentId),
      joined: (t) => follow(session, { tournamentId: t.tournamentId, name: t.name }),
      followed: () => follower?.tournamentId ?? null,
    },
  });
  show(lobby.root, lobby);
  lobby.start();
}

/**
 * A guest signs up: the same player, now an account (its tournament is followed on); then
 * `back` to where it came from (the lobby, or a rated tournament's page), as either.
 */
function showKeepGames(guest: Session, back: (session: Session) => void = showLobby): void {
  show(keepGamesScreen(guest, back, () => back(guest)), null);
  main.querySelector<HTMLInputElement>("#new-name")?.focus();
}

function showDevices(session: Session): void {
  const page = new DevicesPage({
    back: () => showLobby(session),
    signedOut: (everywhere) => signedOut(everywhere ? SIGNED_OUT_EVERYWHERE : ""),
    deleted: () => signedOut(ACCOUNT_DELETED),
  });
  show(page.root, page);
  page.start();
}

/** A player's finished matches (#games/<player>); the reader's own ones open in the replay. */
function showGames(session: Session, playerId: string, name: string): void {
  matchView = null;
  shownMatch = null;
  const page = new GamesPage(session, playerId, name, {
    back: () => (history.replaceState(null, "", location.pathname), showLobby(session)),
    replay: (matchId) => showReplay(session, matchId, 0, () => showGames(session, playerId, name)),
    profile: (id, shown) => showProfile(session, id, shown),
  });
  history.replaceState(null, "", `#games/${encodeURIComponent(playerId)}/${encodeURIComponent(name)}`);
  show(page.root, page);
  page.start();
}

/** A player's profile (#profile/<player>/<name>): ratings over time, rank, results. */
function showProfile(session: Session, playerId: string, name: string): void {
  matchView = null;
  shownMatch = null;
  const page = new ProfilePage(
    playerId,
    name,
    {
      back: () => (history.replaceState(null, "", location.pathname), showLobby(session)),
      games: (id, shown) => showGames(session, id, shown),
      tournament: (tournamentId) => showTournament(session, tournamentId),
      replay: (matchId) => showReplay(session, matchId, 0, () => showProfile(session, playerId, name), "replay.back_to_profile"),
    },
    session.playerId,
  );
  history.replaceState(null, "", `#profile/${encodeURIComponent(playerId)}/${encodeURIComponent(name)}`);
  show(page.root, page);
  page.start();
}

/** The fair-play queue (#fair-play): for operators; anyone else is refused by the server. */
function showFairPlay(session: Session): void {
  matchView = null;
  shownMatch = null;
  const page = new FairPlayPage({
    back: () => (history.replaceState(null, "", location.pathname), showLobby(session)),
    replay: (matchId) => showReplay(session, matchId, 0, () => showFairPlay(session), "replay.back_to_queue"),
    profile: (id, shown) => showProfile(session, id, shown),
  });
  history.replaceState(null, "", "#fair-play");
  show(page.root, page);
  page.start();
}

/** A finished match step by step; the address names the step shown (#replay/<match>/<n>). */
function showReplay(session: Session, matchId: string, step: number, back: () => void, backLabel?: Key): void {
  matchView = null;
  shownMatch = null;
  const page = new ReplayPage(matchId, session, {
    back,
    shown: (id, at) => history.replaceState(null, "", replayHash(id, at)),
  }, step, backLabel);
  replayPage = page;
  show(page.root, page);
  void page.start();
}

/** Show what the address names (a replay's step, a player's games or profile); false when
 * nothing. */
function showAddressed(session: Session): boolean {
  const [what, id, rest] = location.hash.slice(1).split("/").map(decodeURIComponent);
  const mine = () => showGames(session, session.playerId, session.name);
  if (what === "replay" && id) showReplay(session, id, Number(rest) || 0, mine);
  else if (what === "games" && id) showGames(session, id, rest || t("games.a_player"));
  else if (what === "profile" && id) showProfile(session, id, rest || t("games.a_player"));
  else if (what === "fair-play") showFairPlay(session);
  else return false;
  return true;
}

function showTournament(session: Session, tournamentId: string): void {
  matchView = null;
  shownMatch = null;
  const page = new TournamentPage(tournamentId, session, {
    joined: (t) => follow(session, { tournamentId: t.tournamentId, name: t.name }),
    withdrew: () => unfollow(),
    back: () => showLobby(session),
    watch: (matchId) => showSpectator(session, matchId, () => showTournament(session, tournamentId)),
    keepGames: () => showKeepGames(session, (now) => showTournament(now, tournamentId)),
    profile: (id, shown) => showProfile(session, id, shown),
  });
  show(page.root, page);
  page.start();
}

/** The matches in play, per game; Watch opens one as a spectator. */
function showLive(session: Session): void {
  matchView = null;
  shownMatch = null;
  const page = new LivePage({
    watch: (matchId) => showSpectator(session, matchId, () => showLive(session)),
    back: () => showLobby(session),
  });
  show(page.root, page);
  page.start();
}

/** One live match as a spectator sees it: no hand, no hidden tile, no command. */
function showSpectator(session: Session, matchId: string, back: () => void): void {
  matchView = null;
  shownMatch = null;
  const view = new SpectatorView(matchId, session, back);
  show(view.root, view);
  view.start();
}

/** Follow a joined tournament: its bar above every screen, and each game as it is paired. */
function follow(session: Session, followed: Followed): void {
  if (follower?.tournamentId === followed.tournamentId) return;
  unfollow();
  saveFollowed(followed);
  const f: TournamentFollower = new TournamentFollower(followed.tournamentId, {
    standings: () => bar?.render(),
    match: (assignment) => nextGame(session, f, assignment),
    ended: (why) => followingEnded(session, f, why),
  });
  follower = f;
  bar = new TournamentBar(session.playerId, f, () => showTournament(session, followed.tournamentId));
  barHost.replaceChildren(bar.root);
  f.start();
}

function unfollow(): void {
  follower?.stop();
  bar?.stop();
  follower = null;
  bar = null;
  forgetFollowed();
}

/**
 * A new game of the followed tournament: go to it, unless the page shows a live match of
 * something else (a game against the computer, say): then offer it in the bar.
 */
function nextGame(session: Session, f: TournamentFollower, assignment: MatchAssignment): void {
  if (shownMatch?.matchId === assignment.matchId) return;
  const status = matchView?.last().update?.status;
  const busy = shownMatch !== null && shownMatch.tournamentId !== f.tournamentId && status !== undefined && status === Status.LIVE;
  const go = () => {
    bar?.note("");
    startMatch(session, assignment, f.tournamentId);
  };
  if (busy) bar?.note(msg("following.game_ready"), " ", h("button#tournament-go", { type: "button", onclick: go }, msg("following.go")));
  else go();
}

function followingEnded(session: Session, f: TournamentFollower, why: string): void {
  forgetFollowed(); // a reload no longer follows it; the bar keeps the final line until closed
  const mine = f.standings?.standings.find((s) => s.playerId === session.playerId);
  const line = why !== "finished" ? msg("following.ended", { reason: why }) : mine ? msg("following.finished_placed", { rank: mine.rank, points: pointsText(mine.points) }) : msg("following.finished");
  bar?.note(line, " ", h("button.link#tournament-close", { type: "button", onclick: () => unfollow() }, msg("common.close")));
}

function startMatch(session: Session, assignment: MatchAssignment, tournamentId?: string, level?: number): void {
  playMatch(session, saveMatch(assignment, tournamentId, level));
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
  view = new MatchView(
    ctx,
    makeBoard,
    () => {
      forgetMatch();
      showLobby(session);
    },
    (next) => startMatch(session, next, undefined, match.level), // a rematch, or play again
    (playerId, name) => {
      forgetMatch();
      showProfile(session, playerId, name);
    },
  );
  matchView = view;
  shownMatch = match;
  show(view.root, view);
  view.start();
}

function boot(): void {
  useTokens(tokens);
  tokens.onEnded((why) => signedOut(signedOutText(why)));
  // Another tab signed out, or in: this one follows.
  addEventListener("storage", (event) => (event.key === SESSION_KEY || event.key === null) && tokens.storageChanged());
  const session = loadSession();
  if (!session) return showSignIn();
  tokens.resume(session);
  const followed = loadFollowed();
  if (followed) follow(session, followed);
  const match = loadMatch();
  if (showAddressed(session)) return;
  if (match) playMatch(session, match);
  else if (followed) showTournament(session, followed.tournamentId);
  else showLobby(session);
}

/** For the browser tests: the page's latest update and the clock figures it displays. */
declare global {
  interface Window {
    __pf: unknown;
  }
}
window.__pf = {
  last: () => matchView?.last() ?? spectator?.last() ?? null,
  spectated: () => spectator?.received ?? [], // every update the spectator page received
  displayed: () => matchView?.displayed() ?? [],
  probe: () => matchView?.probe() ?? Promise.reject(new Error("no match shown")),
  now: () => performance.now(),
  replay: () => (replayPage?.root.isConnected ? replayPage.shownStep() : null),
  me: () => {
    const s = tokens.current();
    return s && { playerId: s.playerId, name: s.name, guest: !s.account, sessionId: s.account?.sessionId ?? "" };
  },
  refresh: () => tokens.refreshNow(), // as if the access token had been refused
  refreshes: () => tokens.refreshes, // each refresh this tab made or took from another
  // A language made up by a test (a catalog transformed from English): every word shown
  // must change with it, and the screen must stay as it is.
  language: (code: string, dir: "ltr" | "rtl", catalog: Catalog) =>
    useLanguage({ code, name: code, dir, locale: "en", load: async () => catalog }).then(languageChanged),
};
addEventListener("hashchange", () => {
  const session = loadSession();
  if (session) showAddressed(session);
});

/** The page's words in the chosen language, everywhere at once (a match plays on). */
function languageChanged(): void {
  relabelPage();
  document.title = t("app.title");
}

async function start(): Promise<void> {
  await useLanguage(chosenLanguage());
  document.title = t("app.title");
  document.querySelector("#app-title")?.replaceChildren(h("span", msg("app.title")), h("span.tagline", msg("app.tagline")));
  document.body.append(h("footer.site", languageMenu(languageChanged)));
  boot();
}

void start();
