// The fair-play queue (#fair-play), for operators alone (the server refuses anyone else:
// `operators_only`): the open flags, oldest first; a flag's case: the player's reaction
// histogram drawn against everyone's (uPlot bars, as shares), their Spit figures, the
// reports, their measured games (each opens its replay, where every play shows its
// reaction), every action taken on them; and the two actions: clear the flag, or mark the
// account (no rated play, off the ladders, opponents refunded), each saying why.
import uPlot from "uplot";
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { dateText, decimal } from "./i18n/figures";
import { setText } from "./i18n/live";
import { msg, t, type Message } from "./i18n/messages";
import { FlagAction, type FairPlayCase, type Flag, type ReportCount } from "./gen/photofinish/ratings/v1/ratings_pb";
import { spitFigures } from "./profile";
import { reasonKey } from "./report";

const CHART_HEIGHT = 200;
const MIN_WIDTH = 240;
const MAX_WHY = 500;

export interface FairPlayActions {
  back(): void;
  replay(matchId: string): void;
  profile(playerId: string, name: string): void;
}

export class FairPlayPage {
  readonly root = h("section.fairplay");
  private readonly body = h("div.fairplay-body", { "aria-live": "polite" });
  private readonly abort = new AbortController();
  private chart: uPlot | null = null;
  private shown: FairPlayCase | null = null;
  private readonly resized = new ResizeObserver(() => this.fit());
  private readonly relabelled = new MutationObserver(() => this.drawChart());

  constructor(private readonly actions: FairPlayActions) {
    this.root.append(
      h("header.lobby-head", h("h2", msg("fairplay.title")), h("button.link#fairplay-back", { type: "button", onclick: () => actions.back() }, msg("common.back_to_lobby"))),
      this.body,
    );
  }

  start(): void {
    this.relabelled.observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
    void this.showQueue();
  }

  stop(): void {
    this.abort.abort();
    this.resized.disconnect();
    this.relabelled.disconnect();
    this.chart?.destroy();
  }

  private async showQueue(): Promise<void> {
    this.chart?.destroy();
    this.chart = null;
    this.shown = null;
    try {
      const queue = await arena.getFairPlayQueue({}, { signal: this.abort.signal });
      const items = queue.flags.map((flag) => h("li", h("button.link.fairplay-flag", { type: "button", dataset: { player: flag.playerId }, onclick: () => void this.showCase(flag.flagId) }, flagLine(flag))));
      this.body.replaceChildren(items.length ? h("ol.fairplay-queue#fairplay-queue", items) : h("p.fairplay-empty#fairplay-empty", msg("fairplay.empty")));
    } catch (error) {
      if (!this.abort.signal.aborted) this.body.replaceChildren(h("p.refusal#fairplay-refused", msg("fairplay.unavailable", { detail: explain(refusal(error)) })));
    }
  }

  private async showCase(flagId: string): Promise<void> {
    try {
      const found = await arena.getFairPlayCase({ flagId }, { signal: this.abort.signal });
      this.render(found);
    } catch (error) {
      if (!this.abort.signal.aborted) this.body.replaceChildren(h("p.refusal", msg("fairplay.unavailable", { detail: explain(refusal(error)) })), this.backToQueue());
    }
  }

  private backToQueue(): HTMLElement {
    return h("button.link#fairplay-queue-back", { type: "button", onclick: () => void this.showQueue() }, msg("fairplay.back_to_queue"));
  }

  private render(found: FairPlayCase): void {
    const flag = found.flag!;
    const name = flag.name || t("names.deleted");
    const figures = found.figures ? spitFigures(found.figures) : [h("p", msg("fairplay.no_figures"))];
    const chartLabel = msg("fairplay.chart_label", { name });
    const games = found.games.map((game) => {
      const when = new Date(Number(game.playedUnixMs));
      const line = msg("fairplay.game", {
        date: () => dateText(when, { dateStyle: "medium", timeStyle: "short" }),
        opponent: game.opponentName || t("names.deleted"),
        result: msg(game.won ? "games.won" : "games.lost"),
        answers: game.answers,
        median: () => (game.medianAnswerMs === undefined ? "–" : decimal(game.medianAnswerMs)),
      });
      return h("li", { dataset: { match: game.matchId } }, line, " ", h("button.link.fairplay-replay", { type: "button", onclick: () => this.actions.replay(game.matchId) }, msg("games.replay")));
    });
    const logged = found.log.map((entry) =>
      h("li", msg("fairplay.logged", { date: () => dateText(new Date(Number(entry.atUnixMs)), { dateStyle: "medium", timeStyle: "short" }), operator: entry.operatorName, action: msg(entry.action === "mark" ? "fairplay.action.mark" : "fairplay.action.clear"), why: entry.why })),
    );
    this.body.replaceChildren(
      this.backToQueue(),
      h("h3#fairplay-case-name", h("button.link", { type: "button", onclick: () => this.actions.profile(flag.playerId, name) }, name)),
      h("p.fairplay-why", flagLine(flag)),
      h("section.fairplay-figures", ...figures),
      h("div.fairplay-chart#fairplay-chart", { role: "img", "aria-label": chartLabel }),
      h("h4", msg("fairplay.games")),
      games.length ? h("ul.fairplay-games#fairplay-games", games) : h("p", msg("fairplay.no_games")),
      h("h4", msg("fairplay.log")),
      logged.length ? h("ul.fairplay-log#fairplay-log", logged) : h("p#fairplay-log-empty", msg("fairplay.log_empty")),
      this.settleForm(flag, name),
    );
    this.shown = found;
    this.drawChart();
  }

  /** Clear or mark, with the reason kept in the log; marking asks once more. */
  private settleForm(flag: Flag, name: string): HTMLElement {
    const why = h("textarea#fairplay-why", { maxlength: String(MAX_WHY), rows: "3", required: true }) as HTMLTextAreaElement;
    const status = h("p.fairplay-status#fairplay-status", { role: "status" });
    const confirm = h("button.danger#fairplay-mark-confirm", { type: "button", hidden: true }, msg("fairplay.mark_confirm", { name })) as HTMLButtonElement;
    const settle = async (action: FlagAction) => {
      if (!why.value.trim()) {
        setText(status, msg("fairplay.say_why"));
        why.focus();
        return;
      }
      try {
        const done = await arena.settleFlag({ flagId: flag.flagId, action, why: why.value }, { signal: this.abort.signal });
        setText(status, action === FlagAction.MARK ? msg("fairplay.marked", { count: done.refunds }) : msg("fairplay.cleared"));
        for (const button of form.querySelectorAll("button")) (button as HTMLButtonElement).disabled = true;
      } catch (error) {
        setText(status, msg("fairplay.refused", { detail: explain(refusal(error)) }));
      }
    };
    confirm.onclick = () => void settle(FlagAction.MARK);
    const form = h(
      "section.fairplay-settle",
      h("label", { for: "fairplay-why" }, msg("fairplay.why")),
      why,
      h(
        "div.fairplay-buttons",
        h("button#fairplay-clear", { type: "button", onclick: () => void settle(FlagAction.CLEAR) }, msg("fairplay.clear")),
        h("button#fairplay-mark", { type: "button", onclick: () => ((confirm.hidden = false), confirm.focus()) }, msg("fairplay.mark")),
        confirm,
      ),
      h("p.hint", msg("fairplay.mark_means")),
      status,
    );
    return form;
  }

  private fit(): void {
    const chart = this.chart;
    if (!chart) return;
    const width = Math.max(MIN_WIDTH, chart.root.parentElement?.clientWidth ?? 0);
    if (width !== chart.width) chart.setSize({ width, height: CHART_HEIGHT });
  }

  /** The player's answers against everyone's, each as a share of its own total, side by
   * side in each bin (the last bin holds every slower one). */
  private drawChart(): void {
    this.chart?.destroy();
    this.chart = null;
    const found = this.shown;
    const host = this.body.querySelector<HTMLElement>("#fairplay-chart");
    if (!found || !host) return;
    const bins = found.answers.map((_, i) => (i + 0.5) * found.binMs); // each bar mid-bin
    const shares = (counts: number[]) => {
      const total = counts.reduce((a, b) => a + b, 0) || 1;
      return counts.map((c) => (100 * c) / total);
    };
    const bars = uPlot.paths.bars!;
    const name = found.flag?.name || t("names.deleted");
    const last = bins.length - 1;
    const options: uPlot.Options = {
      width: Math.max(MIN_WIDTH, host.clientWidth),
      height: CHART_HEIGHT,
      cursor: { show: false },
      legend: { show: true, live: false },
      scales: { x: { time: false } },
      series: [
        {},
        { label: t("fairplay.series_player", { name }), fill: "#c0392b", stroke: "#c0392b", paths: bars({ size: [0.4, Infinity], align: -1 }), points: { show: false } },
        { label: t("fairplay.series_everyone"), fill: "#7f8c8d", stroke: "#7f8c8d", paths: bars({ size: [0.4, Infinity], align: 1 }), points: { show: false } },
      ],
      axes: [
        { values: (_u, splits) => splits.map((v) => (v === last * found.binMs ? `${decimal(v)}+` : decimal(v))) },
        { values: (_u, splits) => splits.map((v) => `${decimal(v)}%`) },
      ],
    };
    this.chart = new uPlot(options, [bins, shares(found.answers), shares(found.everyoneAnswers)], host);
    this.resized.observe(host);
  }
}

/** A flag as the queue lists it: who, since when, and what raised it. */
function flagLine(flag: Flag): Message {
  const when = new Date(Number(flag.openedUnixMs));
  const reports = flag.reports.reduce((sum, r: ReportCount) => sum + r.count, 0);
  return msg("fairplay.flag", {
    name: flag.name || t("names.deleted"),
    date: () => dateText(when, { dateStyle: "medium", timeStyle: "short" }),
    reactions: flag.reactionsWhy ? "yes" : "no",
    reports,
    reasons: () => flag.reports.map((r) => t("fairplay.report_count", { reason: t(reasonKey(r.reason)), count: r.count })).join(", "),
  });
}
