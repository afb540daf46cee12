// Tournaments: the list, joining, and live standings while watching one.
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import type { MatchAssignment } from "./gen/photofinish/matchmaking/v1/matchmaking_pb";
import { Status, type Standing, type Tournament } from "./gen/photofinish/tournaments/v1/tournaments_pb";
import { Game } from "./gen/photofinish/game/v1/game_pb";

const LIST_REFRESH_MS = 5000;

const STATUS: Record<number, string> = {
  [Status.UPCOMING]: "upcoming",
  [Status.LIVE]: "live",
  [Status.ENDING]: "ending",
  [Status.FINISHED]: "finished",
};

export function tournamentsPanel(signal: AbortSignal, onMatch: (assignment: MatchAssignment) => void): HTMLElement {
  const list = h("div.tournament-list", "Loading…");
  const standings = h("div.standings");
  const panel = h("section.tournaments", h("h3", "Tournaments"), list, standings);
  let watching: AbortController | null = null;

  const watch = async (tournament: Tournament, join: boolean) => {
    watching?.abort();
    const controller = (watching = new AbortController());
    try {
      if (join) await arena.joinTournament({ tournamentId: tournament.tournamentId });
      for await (const update of arena.watchTournament({ tournamentId: tournament.tournamentId }, { signal: controller.signal })) {
        if (update.kind.case === "standings") standings.replaceChildren(table(update.kind.value.tournament ?? tournament, update.kind.value.standings));
        else if (update.kind.case === "match") onMatch(update.kind.value);
      }
    } catch (error) {
      if (!controller.signal.aborted) standings.replaceChildren(h("p", `Standings unavailable: ${explain(refusal(error))}`));
    }
  };

  const load = async () => {
    try {
      const reply = await arena.listTournaments({ limit: 20 }, { signal });
      list.replaceChildren(
        reply.tournaments.length
          ? h(
              "ul",
              reply.tournaments.map((t) =>
                h(
                  "li",
                  { "data-tournament": t.tournamentId },
                  `${t.name} · ${t.game === Game.SPIT ? "Spit" : "Bid"} · ${STATUS[t.status] ?? ""} · ${t.entrants} entrants `,
                  h("button.standings", { type: "button", onclick: () => void watch(t, false) }, "Standings"),
                  t.status === Status.UPCOMING || t.status === Status.LIVE ? h("button.join", { type: "button", onclick: () => void watch(t, true) }, "Join") : null,
                ),
              ),
            )
          : h("p", "No tournaments right now."),
      );
    } catch (error) {
      if (!signal.aborted) list.replaceChildren(h("p", `Tournaments are not available (${explain(refusal(error))}).`));
    }
  };
  void load();
  const timer = window.setInterval(() => void load(), LIST_REFRESH_MS);
  signal.addEventListener("abort", () => {
    window.clearInterval(timer);
    watching?.abort();
  });
  return panel;
}

function table(tournament: Tournament, rows: Standing[]): HTMLElement {
  return h(
    "table.ladder.standings-table",
    h("caption", `${tournament.name}: standings`),
    h("thead", h("tr", h("th", "#"), h("th", "Player"), h("th", "Points"), h("th", "Games"), h("th", "Sheet"))),
    h(
      "tbody",
      rows.map((s) =>
        h("tr", h("td", String(s.rank)), h("td", `${s.name}${s.onFire ? " 🔥" : ""}${s.playing ? " (playing)" : ""}`), h("td", String(s.points)), h("td", String(s.games)), h("td", s.scoresheet)),
      ),
    ),
  );
}
