// The Bid table's plays list, kept in the tab's session storage: a reload shows the plays this
// page heard before it, not an empty list. What is kept is the events themselves (as the
// server sent them to this page, nothing more), worded again in the language of the moment.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { BidEventSchema, BidPlayedSchema, type BidEvent, type BidPlayed } from "./gen/photofinish/game/v1/bid_pb";

/** One line of the list: its number, the event it tells, and the play before it in the same
 * update (a round's end is told with the play that ended it). */
export interface Heard {
  n: number;
  event: BidEvent;
  last: BidPlayed | null;
}

/** The list as a page left it: its lines, how many it numbered, the last update it read. */
export interface PlaysList {
  heard: Heard[];
  logged: number;
  seq: bigint;
}

const KEY = "pf.bid.plays.";

interface Stored {
  logged: number;
  seq: string;
  heard: { n: number; event: string; last: string }[];
}

const encode = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const decode = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Keep match ``matchId``'s list for a reload of this tab (nothing when storage refuses). */
export function keepPlays(matchId: string, list: PlaysList): void {
  const stored: Stored = {
    logged: list.logged,
    seq: list.seq.toString(),
    heard: list.heard.map(({ n, event, last }) => ({
      n,
      event: encode(toBinary(BidEventSchema, event)),
      last: last ? encode(toBinary(BidPlayedSchema, last)) : "",
    })),
  };
  try {
    sessionStorage.setItem(KEY + matchId, JSON.stringify(stored));
  } catch {
    // Storage full or switched off: the list starts empty after a reload, as it used to.
  }
}

/** Return the list this tab kept of match ``matchId``, or null (none, or unreadable). */
export function keptPlays(matchId: string): PlaysList | null {
  try {
    const raw = sessionStorage.getItem(KEY + matchId);
    if (!raw) return null;
    const stored = JSON.parse(raw) as Stored;
    return {
      logged: stored.logged,
      seq: BigInt(stored.seq),
      heard: stored.heard.map(({ n, event, last }) => ({
        n,
        event: fromBinary(BidEventSchema, decode(event)),
        last: last ? fromBinary(BidPlayedSchema, decode(last)) : null,
      })),
    };
  } catch {
    return null; // written by another version of the page, or damaged: start afresh
  }
}
