// At the end of an online match: report the opponent (a short list of reasons) to the
// operators' fair-play queue. Once per match; the server limits reports a day and says so.
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { setText } from "./i18n/live";
import { msg, type Key, type Words } from "./i18n/messages";
import { ReportReason } from "./gen/photofinish/ratings/v1/ratings_pb";

const RECORDING_TRIES = 5; // the result reaches the ratings service a moment after the end
const RECORDING_WAIT_MS = 1000;

export const REPORT_REASONS: [ReportReason, Key][] = [
  [ReportReason.TOO_FAST, "report.reason.too_fast"],
  [ReportReason.PROGRAM, "report.reason.program"],
  [ReportReason.STALLING, "report.reason.stalling"],
  [ReportReason.NAME, "report.reason.name"],
];

export function reasonKey(reason: ReportReason): Key {
  return REPORT_REASONS.find(([r]) => r === reason)?.[1] ?? "report.reason.too_fast";
}

export function reportPanel(matchId: string, opponent: Words, signal: AbortSignal): HTMLElement {
  const status = h("p.report-status#report-status", { role: "status" });
  const choices = REPORT_REASONS.map(([reason, key], i) =>
    h("label.report-reason", h("input", { type: "radio", name: "report-reason", value: String(reason), checked: i === 0 }), " ", msg(key)),
  );
  const send = h("button#report-send", { type: "button" }, msg("report.send")) as HTMLButtonElement;
  send.onclick = async () => {
    const picked = panel.querySelector<HTMLInputElement>("input[name=report-reason]:checked");
    send.disabled = true;
    for (let attempt = 1; ; attempt++) {
      try {
        await arena.reportOpponent({ matchId, reason: Number(picked?.value ?? 1) }, { signal });
        setText(status, msg("report.sent"));
        return;
      } catch (error) {
        const why = refusal(error);
        if (why.reason === "not_your_match" && attempt < RECORDING_TRIES && !signal.aborted) {
          await new Promise((resolve) => setTimeout(resolve, RECORDING_WAIT_MS));
          continue;
        }
        setText(status, msg("report.refused", { detail: explain(why) }));
        send.disabled = why.reason === "already_reported";
        return;
      }
    }
  };
  const panel = h("details.report#report", h("summary", msg("report.title", { name: opponent })), h("fieldset", h("legend", msg("report.why")), ...choices), send, status);
  return panel;
}
