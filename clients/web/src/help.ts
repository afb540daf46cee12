// Rules help: opens in place and sends nothing, so the server's clock runs on.
import { h } from "./dom";

const BID = [
  "Join a tile where its half equals the open end. The first double is the spinner: its branches open once both main arms are filled.",
  "After each play the exposed ends are added up; a positive multiple of 5 moves that many points from the opponent to you.",
  "Cannot play? Draw until a playable tile appears (it must be played at once); pass only when you can neither play nor draw.",
  "Going out makes you the jockey: in the next auction the opponent passes (you open free) or bids ≥ 15; raise by 5s; the accepted bidder pays and opens. The jockey gets 15 off their own winning bid.",
  "Clock: 120 s bank for the match plus a fresh 10 s grace per new decision; gates and hand-overs stop both clocks. A balance or a bank at 0 loses.",
];
const SPIT = [
  "No turns: play a face-up stock card one rank above or below a centre pile's top (K and A are adjacent).",
  "An empty stock space can take a face-up card to uncover the one below.",
  "When nobody can go on, both spit a new card onto the centre.",
  "Empty your stock piles to take the smaller centre pile; no cards left at a round's end wins the match.",
  "Two plays on one pile at once: the one the server received first lands; the other is refused with the measured gap.",
];

export function rulesHelp(game: "bid" | "spit"): HTMLElement {
  const lines = game === "bid" ? BID : SPIT;
  return h(
    "details.rules-help",
    // Spit has no clock (and pauses against the computer): only Bid's runs on meanwhile.
    h("summary", game === "bid" ? "Rules help (the clock keeps running)" : "Rules help"),
    h("ul", lines.map((line) => h("li", line))),
  );
}
