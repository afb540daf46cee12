// Download my games: every finished match of mine, each with its whole arbitration log (as
// GetMatchLog gives it, the log the replay is built from), in one JSON file.
import { toJson } from "@bufbuild/protobuf";
import { arena, refusal } from "./api";
import { MatchLogSchema } from "./gen/photofinish/arbitration/v1/log_pb";
import { HistoryEntrySchema, type HistoryEntry } from "./gen/photofinish/ratings/v1/ratings_pb";
import type { Session } from "./store";

const PAGE = 100; // the history's largest page
export const FORMAT = "photofinish.my-games.v1";

/** The file's content: who, when, and each match's history line with its log (or why not). */
export async function myGames(session: Session, progress: (done: number, total: number) => void, signal: AbortSignal): Promise<object> {
  const entries: HistoryEntry[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await arena.getHistory({ playerId: session.playerId, limit: PAGE, offset }, { signal });
    entries.push(...page.entries);
    if (!page.more || !page.entries.length) break;
  }
  const matches = [];
  for (const [index, entry] of entries.entries()) {
    progress(index, entries.length);
    const line = toJson(HistoryEntrySchema, entry);
    try {
      const log = await arena.getMatchLog({ matchId: entry.matchId }, { signal });
      matches.push({ matchId: entry.matchId, history: line, log: toJson(MatchLogSchema, log) });
    } catch (error) {
      if (signal.aborted) throw error;
      matches.push({ matchId: entry.matchId, history: line, logUnavailable: refusal(error).reason || "unreachable" });
    }
  }
  progress(entries.length, entries.length);
  return { format: FORMAT, playerId: session.playerId, name: session.name, exportedAt: new Date().toISOString(), matches };
}

/** Hand ``content`` to the browser as a file to save. */
export function save(content: object, name: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(content, null, 1)], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
