// The lobby: play a game (computer, online queue or challenge code, hot-seat), the ladders.
// Rated play is for accounts: a guest's "rated" boxes are unticked and disabled, with a note
// and the Sign up that keeps its games.
import { ACCOUNT_NEEDED, accountNeeded, type RatedTry } from "./accountwords";
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { decimal } from "./i18n/figures";
import { setText, wordsNode } from "./i18n/live";
import { msg, type Words } from "./i18n/messages";
import { Game, Level } from "./gen/photofinish/game/v1/game_pb";
import type { MatchAssignment } from "./gen/photofinish/matchmaking/v1/matchmaking_pb";
import type { LadderEntry } from "./gen/photofinish/ratings/v1/ratings_pb";
import { gameName } from "./match";
import { playerNameShown } from "./names";
import type { Session } from "./store";
import { tournamentsPanel, type TournamentsActions } from "./tournaments";

const LADDER_REFRESH_MS = 5000;
const PROVISIONAL = msg("lobby.provisional");
const LADDER_SIZE = 10;

export interface LobbyActions {
  onMatch(assignment: MatchAssignment, level?: Level): void; // level: against the computer
  onSignOut(): void;
  keepGames(): void; // a guest's sign-up, which keeps its games
  devices(): void; // an account's signed-in devices
  myGames(): void; // the player's own finished matches, to replay
  playerGames(playerId: string, name: string): void; // another player's, from a ladder
  profile(playerId: string, name: string): void; // an account's profile, from a ladder
  watchLive(): void; // the matches in play, to watch as a spectator
  fairPlay(): void; // the fair-play queue (operators only)
  tournaments: TournamentsActions;
}

export class Lobby {
  readonly root = h("section.lobby");
  private readonly abort = new AbortController();
  private readonly status = h("p.lobby-status", { role: "status", "aria-live": "polite" });
  private readonly ladders = h("div.ladders");
  private timer = 0;
  private waiting: AbortController | null = null;
  private readonly guest: boolean; // rated play is for accounts

  constructor(
    private readonly session: Session,
    private readonly actions: LobbyActions,
  ) {
    this.guest = !session.account;
    this.root.append(
      h(
        "header.lobby-head",
        h("h2", msg("lobby.hello", { name: h("span#me", playerNameShown({ name: session.name, guest: !session.account })) })),
        session.account
          ? h("button#devices", { type: "button", onclick: () => actions.devices() }, msg("devices.title"))
          : h("button.primary#keep-games", { type: "button", onclick: () => actions.keepGames() }, msg("lobby.keep_games")),
        h("button#watch-live", { type: "button", onclick: () => actions.watchLive() }, msg("live.title")),
        h("button#my-games", { type: "button", onclick: () => actions.myGames() }, msg("games.mine")),
        session.operator ? h("button#fair-play", { type: "button", onclick: () => actions.fairPlay() }, msg("fairplay.title")) : null,
        h("button.link#sign-out", { type: "button", onclick: () => actions.onSignOut() }, msg("devices.sign_out")),
      ),
      this.status,
      h("div.games", this.gameCard(Game.SPIT, msg("lobby.blurb.spit")), this.gameCard(Game.BID, msg("lobby.blurb.bid"))),
      h("section.ladder-section", h("h3", msg("lobby.ladders")), this.ladders),
      tournamentsPanel(this.abort.signal, actions.tournaments, this.guest ? () => actions.keepGames() : null),
    );
  }

  start(): void {
    void this.refreshLadders();
    this.timer = window.setInterval(() => void this.refreshLadders(), LADDER_REFRESH_MS);
  }

  stop(): void {
    window.clearInterval(this.timer);
    this.abort.abort();
    this.waiting?.abort();
  }

  private gameCard(game: Game, blurb: Words): HTMLElement {
    const title = gameName(game);
    const id = game === Game.SPIT ? "spit" : "bid";
    const level = h(
      `select#${id}-level`,
      { "aria-label": msg("lobby.computer_speed", { game: title }) },
      h("option", { value: String(Level.EASY) }, game === Game.SPIT ? msg("lobby.level.easy_slow") : msg("lobby.level.easy")),
      h("option", { value: String(Level.MEDIUM) }, msg("lobby.level.medium")),
      h("option", { value: String(Level.HARD) }, game === Game.SPIT ? msg("lobby.level.hard_fast") : msg("lobby.level.hard")),
    ) as HTMLSelectElement;
    const note = `${id}-rated-note`;
    const rated = h("input", { type: "checkbox", id: `${id}-rated`, checked: !this.guest, disabled: this.guest, "aria-describedby": this.guest ? note : null }) as HTMLInputElement;
    const code = h("input", { id: `${id}-code`, placeholder: msg("lobby.code_placeholder"), "aria-label": msg("lobby.code_label"), size: "8", autocomplete: "off" }) as HTMLInputElement;
    return h(
      `article.game-card#card-${id}`,
      h("h3", title),
      h("p.blurb", blurb),
      h(
        "div.row",
        level,
        h("button.primary", { type: "button", id: `${id}-computer`, onclick: () => this.computer(game, Number(level.value) as Level) }, msg("lobby.play_computer")),
      ),
      h(
        "div.row",
        h("label", rated, " ", msg("lobby.rated")),
        h("button", { type: "button", id: `${id}-queue`, onclick: () => this.queue(game, rated.checked) }, msg("lobby.find_opponent")),
        h("button", { type: "button", id: `${id}-challenge`, onclick: () => this.challenge(game, rated.checked) }, msg("lobby.challenge")),
      ),
      this.guest ? h(`p.rated-note#${note}`, ...accountNeeded("note", `${id}-rated-sign-up`, () => this.actions.keepGames())) : null,
      h(
        "form.row",
        { onsubmit: (event: Event) => (event.preventDefault(), void this.accept(code.value.trim())) },
        code,
        h("button", { type: "submit", id: `${id}-accept` }, msg("lobby.accept_code")),
      ),
      game === Game.BID
        ? h("div.row", h("button", { type: "button", id: "bid-hotseat", onclick: () => this.hotSeat(game) }, msg("lobby.hot_seat")))
        : null,
    );
  }

  private say(words: Words): void {
    setText(this.status, words);
  }

  /** Say why a refusal came: rated play refused to a guest in words, with its Sign up. */
  private refused(error: unknown, lead: "lobby.could_not_start" | "lobby.queue_stopped" | "lobby.challenge_stopped", tried: RatedTry): void {
    const why = refusal(error);
    if (why.reason === ACCOUNT_NEEDED) this.status.replaceChildren(...accountNeeded(tried, "status-sign-up", () => this.actions.keepGames()));
    else this.say(msg(lead, { detail: explain(why) }));
  }

  private async call(what: () => Promise<MatchAssignment>, level?: Level): Promise<void> {
    try {
      this.actions.onMatch(await what(), level);
    } catch (error) {
      this.refused(error, "lobby.could_not_start", "accept"); // only a rated challenge's code needs an account
    }
  }

  private computer(game: Game, level: Level): void {
    this.say(msg("lobby.finding_computer"));
    void this.call(() => arena.playComputer({ game, level }), level);
  }

  private hotSeat(game: Game): void {
    void this.call(() => arena.playHotSeat({ game }));
  }

  private accept(code: string): void {
    if (!code) return this.say(msg("lobby.type_code"));
    void this.call(() => arena.acceptChallenge({ code }));
  }

  private cancelButton(game: Game): HTMLElement {
    return h(
      "button#cancel-wait",
      {
        type: "button",
        onclick: () => {
          this.waiting?.abort();
          void arena.cancelQueue({ game }).catch(() => undefined);
          this.say(msg("lobby.stopped_waiting"));
        },
      },
      msg("common.cancel"),
    );
  }

  private async queue(game: Game, rated: boolean): Promise<void> {
    this.waiting?.abort();
    const controller = (this.waiting = new AbortController());
    this.say(msg("lobby.joining_queue"));
    try {
      for await (const update of arena.queue({ game, rated }, { signal: controller.signal })) {
        if (update.kind.case === "waiting") {
          this.status.replaceChildren(wordsNode(msg("lobby.waiting_queue", { count: update.kind.value })), " ", this.cancelButton(game));
        } else if (update.kind.case === "match") {
          controller.abort();
          return this.actions.onMatch(update.kind.value);
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) this.refused(error, "lobby.queue_stopped", "queue");
    }
  }

  private async challenge(game: Game, rated: boolean): Promise<void> {
    this.waiting?.abort();
    const controller = (this.waiting = new AbortController());
    try {
      let shownCode = "";
      for await (const update of arena.createChallenge({ game, rated }, { signal: controller.signal })) {
        // The server sends the code again when someone accepts, to see that this page is
        // still here: it is shown once.
        if (update.kind.case === "code" && update.kind.value !== shownCode) {
          const code = (shownCode = update.kind.value);
          const copy = h("button#copy-code", { type: "button", onclick: () => void copyCode(code, copy) }, msg("lobby.copy"));
          const terms = rated ? msg("terms.rated") : msg("terms.casual");
          const shown = h("strong.challenge-code#challenge-code", code);
          this.say(msg("lobby.share_code", { game: gameName(game), terms, code: shown, copy, cancel: this.cancelButton(game) }));
        } else if (update.kind.case === "match") {
          controller.abort();
          return this.actions.onMatch(update.kind.value);
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) this.refused(error, "lobby.challenge_stopped", "challenge");
    }
  }

  private async refreshLadders(): Promise<void> {
    const tables = await Promise.all(
      [Game.SPIT, Game.BID].map(async (game) => {
        const title = gameName(game);
        try {
          const ladder = await arena.getLadder({ game, limit: LADDER_SIZE });
          const rows = ladder.entries.map((e) =>
            h(
              `tr${e.playerId === this.session.playerId ? ".me" : ""}`,
              h("td", String(e.rank)),
              h("td.ladder-name", this.ladderName(e)),
              h("td", () => decimal(e.rating), e.provisional ? h("abbr.provisional", { title: PROVISIONAL }, "?") : null),
              h("td", msg("lobby.won_of", { wins: e.wins, games: e.games })),
            ),
          );
          return h(
            "table.ladder",
            { "data-game": String(game) },
            h("caption", title),
            h("thead", h("tr", h("th", msg("table.rank")), h("th", msg("table.player")), h("th", msg("table.rating")), h("th", msg("table.won")))),
            h("tbody", rows.length ? rows : h("tr", h("td", { colspan: "4" }, msg("lobby.no_rated_games")))),
            ladder.entries.some((e) => e.provisional) ? h("tfoot", h("tr", h("td.legend", { colspan: "4" }, msg("lobby.provisional_legend", { provisional: PROVISIONAL })))) : null,
          );
        } catch {
          return h("p", msg("lobby.ladder_unavailable", { game: title }));
        }
      }),
    );
    this.ladders.replaceChildren(...tables);
  }

  /** A ladder row's player: a link to an account's profile, or to a guest's games (guests
   * have no profile), marked a guest; a deleted account's, no link. */
  private ladderName(e: LadderEntry): (Words | HTMLElement)[] {
    if (e.deleted) return playerNameShown(e);
    const link = e.guest
      ? { title: msg("games.players", { name: e.name }), onclick: () => this.actions.playerGames(e.playerId, e.name) }
      : { title: msg("profile.open", { name: e.name }), onclick: () => this.actions.profile(e.playerId, e.name) };
    return [
      h("button.link.player-games", { type: "button", ...link }, playerNameShown(e)),
      h("span.tag", { title: msg("lobby.id_tag") }, ` #${e.playerId.slice(-4)}`),
    ];
  }
}

/** Copy a challenge code to the clipboard, saying so on the button (or select it to copy). */
async function copyCode(code: string, button: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(code);
    setText(button, msg("lobby.copied"));
  } catch {
    const shown = document.querySelector("#challenge-code");
    if (shown) window.getSelection()?.selectAllChildren(shown);
    setText(button, msg("lobby.selected"));
  }
}
