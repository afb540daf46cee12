/**
 * One stream's view, kept from update to update. Most updates carry no view, only the
 * step's change: its events and what a view shows beyond them (`told`; see MatchUpdate in
 * arbitration.proto). The page keeps the last whole view and brings it forward with each
 * change, so every update it reads holds a whole `view`, as if the server had sent it.
 */
import { create } from "@bufbuild/protobuf";
import type { MatchUpdate } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { ViewSchema, type View } from "./gen/photofinish/game/v1/game_pb";
import { bidChanged } from "./bidchanges";
import { spitChanged } from "./spitchanges";

export class KeptView {
  private view: View | null = null;

  /**
   * `update` (changed in place) with its whole view: its own, or the kept one brought
   * forward by its change. Left without one while no whole view has come (a stream begins
   * with one; the server sends one every few steps).
   */
  complete(update: MatchUpdate): MatchUpdate {
    if (update.view) {
      this.view = update.view;
      return update;
    }
    const kept = this.view;
    if (!kept) return update;
    if (update.told && update.since === versionOf(kept)) {
      this.view = changed(kept, update);
    } else if (update.version > versionOf(kept)) {
      this.view = null; // a change went missing: wait for a whole view
    }
    if (this.view) update.view = this.view;
    return update;
  }
}

function versionOf(view: View): bigint {
  return view.kind.case === undefined ? -1n : view.kind.value.version;
}

/** The kept view after the update's change; null when the change is not one of its game's. */
function changed(kept: View, update: MatchUpdate): View | null {
  const told = update.told?.kind;
  if (kept.kind.case === "spit" && told?.case === "spit") {
    const events = update.events.flatMap((e) => (e.kind.case === "spit" ? [e.kind.value] : []));
    return create(ViewSchema, { kind: { case: "spit", value: spitChanged(kept.kind.value, events, told.value) } });
  }
  if (kept.kind.case === "bid" && told?.case === "bid") {
    const events = update.events.flatMap((e) => (e.kind.case === "bid" ? [e.kind.value] : []));
    return create(ViewSchema, { kind: { case: "bid", value: bidChanged(kept.kind.value, events, told.value) } });
  }
  return null;
}
