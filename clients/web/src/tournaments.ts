// The lobby's tournaments: the list (open one, or join it), and a form to create one. A rated
// tournament is for accounts: a guest is told so, with the Sign up that keeps its games.
import { ACCOUNT_NEEDED, accountNeeded } from "./accountwords";
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { setText } from "./i18n/live";
import { msg, type Key } from "./i18n/messages";
import { entrantsText } from "./following";
import { Game } from "./gen/photofinish/game/v1/game_pb";
import { Status, type Tournament } from "./gen/photofinish/tournaments/v1/tournaments_pb";
import { gameName } from "./match";

const LIST_REFRESH_MS = 5000;
const LENGTHS_MIN = [3, 5, 10, 20, 30, 60];
const DEFAULT_LENGTH_MIN = 10;

const STATUS: Record<number, Key> = {
  [Status.UPCOMING]: "tournaments.status.upcoming",
  [Status.LIVE]: "tournaments.status.live",
  [Status.ENDING]: "tournaments.status.ending",
  [Status.FINISHED]: "tournaments.status.finished",
};

export interface TournamentsActions {
  open(tournamentId: string): void;
  joined(t: Tournament): void;
  /** The tournament this page follows, if any (its Join reads "Joined"). */
  followed(): string | null;
}

/** `signUp`: a guest's way to an account, which keeps its games (null for an account). */
export function tournamentsPanel(signal: AbortSignal, actions: TournamentsActions, signUp: (() => void) | null): HTMLElement {
  const list = h("div.tournament-list", msg("common.loading"));
  const status = h("p.tournament-status", { role: "status", "aria-live": "polite" });
  const needAccount = (what: "join" | "create") => status.replaceChildren(...accountNeeded(what, "tournament-sign-up", () => signUp?.())); // a guest's

  const join = async (t: Tournament) => {
    if (signUp && t.rated) return needAccount("join"); // a join that would be refused
    try {
      actions.joined(await arena.joinTournament({ tournamentId: t.tournamentId }));
      actions.open(t.tournamentId);
    } catch (error) {
      const why = refusal(error);
      if (why.reason === ACCOUNT_NEEDED && signUp) needAccount("join");
      else setText(status, msg("tournaments.could_not_join", { detail: explain(why) }));
    }
  };

  const item = (t: Tournament) => {
    const open = t.status === Status.UPCOMING || t.status === Status.LIVE;
    const joined = actions.followed() === t.tournamentId;
    return h(
      "li",
      { "data-tournament": t.tournamentId },
      msg(t.rated ? "tournaments.item_rated" : "tournaments.item", {
        name: t.name,
        game: gameName(t.game),
        status: STATUS[t.status] ? msg(STATUS[t.status]) : "",
        entrants: entrantsText(t.entrants),
      }),
      " ",
      h("button.standings", { type: "button", onclick: () => actions.open(t.tournamentId) }, msg("tournaments.open")),
      open && !joined ? h("button.join", { type: "button", onclick: () => void join(t) }, msg("tournaments.join")) : null,
      joined ? h("span.joined", " ", msg("tournaments.joined")) : null,
    );
  };

  const load = async () => {
    try {
      const reply = await arena.listTournaments({ limit: 20 }, { signal });
      list.replaceChildren(reply.tournaments.length ? h("ul", reply.tournaments.map(item)) : h("p", msg("tournaments.none")));
    } catch (error) {
      if (!signal.aborted) list.replaceChildren(h("p", msg("tournaments.unavailable", { detail: explain(refusal(error)) })));
    }
  };
  void load();
  const timer = window.setInterval(() => void load(), LIST_REFRESH_MS);
  signal.addEventListener("abort", () => window.clearInterval(timer));
  return h("section.tournaments", h("h3", msg("tournaments.title")), list, status, createForm(status, actions, signUp, needAccount));
}

/** Name, game, length, rated (for an account), start now or at a time: created, joined and opened. */
function createForm(status: HTMLElement, actions: TournamentsActions, signUp: (() => void) | null, needAccount: (what: "join" | "create") => void): HTMLElement {
  const name = h("input#tournament-name", { required: true, maxlength: "40", placeholder: msg("tournaments.name_placeholder"), "aria-label": msg("tournaments.name_label") }) as HTMLInputElement;
  const game = h(
    "select#tournament-game",
    { "aria-label": msg("tournaments.game_label") },
    h("option", { value: String(Game.SPIT) }, gameName(Game.SPIT)),
    h("option", { value: String(Game.BID) }, gameName(Game.BID)),
  ) as HTMLSelectElement;
  const length = h(
    "select#tournament-length",
    { "aria-label": msg("tournaments.length_label") },
    LENGTHS_MIN.map((m) => h("option", { value: String(m), selected: m === DEFAULT_LENGTH_MIN }, msg("tournaments.minutes", { minutes: m }))),
  ) as HTMLSelectElement;
  const guest = signUp !== null;
  const rated = h("input#tournament-rated", { type: "checkbox", checked: !guest, disabled: guest, "aria-describedby": guest ? "tournament-rated-note" : null }) as HTMLInputElement;
  const at = h("input#tournament-at", { type: "datetime-local", "aria-label": msg("tournaments.starts_label") }) as HTMLInputElement;

  const create = async (event: Event) => {
    event.preventDefault();
    const startsAt = at.value ? new Date(at.value).getTime() : 0;
    if (at.value && !(startsAt > Date.now())) return void setText(status, msg("tournaments.start_in_future"));
    try {
      const t = await arena.createTournament({
        name: name.value.trim(),
        game: Number(game.value) as Game,
        rated: rated.checked,
        startsAtUnixMs: BigInt(startsAt),
        durationS: Number(length.value) * 60,
      });
      actions.joined(await arena.joinTournament({ tournamentId: t.tournamentId }));
      actions.open(t.tournamentId);
    } catch (error) {
      const why = refusal(error);
      if (why.reason === ACCOUNT_NEEDED && signUp) needAccount("create");
      else setText(status, msg("tournaments.could_not_create", { detail: explain(why) }));
    }
  };

  return h(
    "details.create-tournament",
    h("summary", msg("tournaments.create")),
    h(
      "form#tournament-form",
      { onsubmit: (event: Event) => void create(event) },
      h("div.row", name, game),
      h("div.row", h("label", msg("tournaments.length"), " ", length), h("label", rated, " ", msg("lobby.rated"))),
      signUp ? h("p.rated-note#tournament-rated-note", ...accountNeeded("note", "tournament-rated-sign-up", signUp)) : null,
      h("div.row", h("label", msg("tournaments.starts"), " ", at), h("span.hint", msg("tournaments.starts_hint"))),
      h("div.row", h("button.primary#tournament-create", { type: "submit" }, msg("tournaments.create_join"))),
    ),
  );
}
