// The lobby's tournaments: the list (open one, or join it), and a form to create one. A rated
// tournament is for accounts: a guest is told so, with the Sign up that keeps its games.
import { ACCOUNT_NEEDED, accountNeeded } from "./accountwords";
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { entrantsText } from "./following";
import { Game } from "./gen/photofinish/game/v1/game_pb";
import { Status, type Tournament } from "./gen/photofinish/tournaments/v1/tournaments_pb";
import { gameName } from "./match";

const LIST_REFRESH_MS = 5000;
const LENGTHS_MIN = [3, 5, 10, 20, 30, 60];
const DEFAULT_LENGTH_MIN = 10;

const STATUS: Record<number, string> = {
  [Status.UPCOMING]: "upcoming",
  [Status.LIVE]: "live",
  [Status.ENDING]: "ending",
  [Status.FINISHED]: "finished",
};

export interface TournamentsActions {
  open(tournamentId: string): void;
  joined(t: Tournament): void;
  /** The tournament this page follows, if any (its Join reads "Joined"). */
  followed(): string | null;
}

/** `signUp`: a guest's way to an account, which keeps its games (null for an account). */
export function tournamentsPanel(signal: AbortSignal, actions: TournamentsActions, signUp: (() => void) | null): HTMLElement {
  const list = h("div.tournament-list", "Loading…");
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
      else status.replaceChildren(`Could not join: ${explain(why)}`);
    }
  };

  const item = (t: Tournament) => {
    const open = t.status === Status.UPCOMING || t.status === Status.LIVE;
    const joined = actions.followed() === t.tournamentId;
    return h(
      "li",
      { "data-tournament": t.tournamentId },
      `${t.name} · ${gameName(t.game)}${t.rated ? " · rated" : ""} · ${STATUS[t.status] ?? ""} · ${entrantsText(t.entrants)} `,
      h("button.standings", { type: "button", onclick: () => actions.open(t.tournamentId) }, "Open"),
      open && !joined ? h("button.join", { type: "button", onclick: () => void join(t) }, "Join") : null,
      joined ? h("span.joined", " (joined)") : null,
    );
  };

  const load = async () => {
    try {
      const reply = await arena.listTournaments({ limit: 20 }, { signal });
      list.replaceChildren(reply.tournaments.length ? h("ul", reply.tournaments.map(item)) : h("p", "No tournaments right now."));
    } catch (error) {
      if (!signal.aborted) list.replaceChildren(h("p", `Tournaments are not available (${explain(refusal(error))}).`));
    }
  };
  void load();
  const timer = window.setInterval(() => void load(), LIST_REFRESH_MS);
  signal.addEventListener("abort", () => window.clearInterval(timer));
  return h("section.tournaments", h("h3", "Tournaments"), list, status, createForm(status, actions, signUp, needAccount));
}

/** Name, game, length, rated (for an account), start now or at a time: created, joined and opened. */
function createForm(status: HTMLElement, actions: TournamentsActions, signUp: (() => void) | null, needAccount: (what: "join" | "create") => void): HTMLElement {
  const name = h("input#tournament-name", { required: true, maxlength: "40", placeholder: "Name", "aria-label": "tournament name" }) as HTMLInputElement;
  const game = h(
    "select#tournament-game",
    { "aria-label": "game" },
    h("option", { value: String(Game.SPIT) }, "Spit"),
    h("option", { value: String(Game.BID) }, "Spectacular Bid"),
  ) as HTMLSelectElement;
  const length = h(
    "select#tournament-length",
    { "aria-label": "length" },
    LENGTHS_MIN.map((m) => h("option", { value: String(m), selected: m === DEFAULT_LENGTH_MIN }, `${m} min`)),
  ) as HTMLSelectElement;
  const guest = signUp !== null;
  const rated = h("input#tournament-rated", { type: "checkbox", checked: !guest, disabled: guest, "aria-describedby": guest ? "tournament-rated-note" : null }) as HTMLInputElement;
  const at = h("input#tournament-at", { type: "datetime-local", "aria-label": "start time (empty: now)" }) as HTMLInputElement;

  const create = async (event: Event) => {
    event.preventDefault();
    const startsAt = at.value ? new Date(at.value).getTime() : 0;
    if (at.value && !(startsAt > Date.now())) return void status.replaceChildren("Choose a start time in the future, or leave it empty to start now.");
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
      else status.replaceChildren(`Could not create the tournament: ${explain(why)}`);
    }
  };

  return h(
    "details.create-tournament",
    h("summary", "Create a tournament"),
    h(
      "form#tournament-form",
      { onsubmit: (event: Event) => void create(event) },
      h("div.row", name, game),
      h("div.row", h("label", "Length ", length), h("label", rated, " rated")),
      signUp ? h("p.rated-note#tournament-rated-note", ...accountNeeded("note", "tournament-rated-sign-up", signUp)) : null,
      h("div.row", h("label", "Starts ", at), h("span.hint", "empty: now")),
      h("div.row", h("button.primary#tournament-create", { type: "submit" }, "Create and join")),
    ),
  );
}
