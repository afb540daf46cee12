/**
 * One stream's view, kept from update to update. Most updates carry no view, only the
 * step's change: its events and what a view shows beyond them (`told`; see MatchUpdate in
 * arbitration.proto). The page keeps the last whole view and brings it forward with each
 * change, so every update it reads holds a whole `view`, as if the server had sent it.
 * When a change goes missing (a gateway that lost its NATS link for a moment), the kept view
 * cannot be brought forward: `complete` throws `ChangeMissed`, and the stream is opened
 * again (a new stream begins with the whole view).
 */
import { create } from "@bufbuild/protobuf";
import type { MatchUpdate } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { ViewSchema, type View } from "./gen/photofinish/game/v1/game_pb";
import { bidChanged } from "./bidchanges";
import { spitChanged } from "./spitchanges";

/** A change this stream should have brought did not come: open the stream again. */
export class ChangeMissed extends Error {
  override name = "ChangeMissed";
}

export class KeptView {
  private view: View | null = null;

  /**
   * `update` (changed in place) with its whole view: its own, or the kept one brought
   * forward by its change. Left without one while no whole view has come (a stream begins
   * with one). Throws ChangeMissed when the update's change does not follow the kept view.
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
      this.view = null;
      throw new ChangeMissed(`a change went missing: version ${update.since} came after ${versionOf(kept)}`);
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
