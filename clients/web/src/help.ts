// Rules help: opens in place and sends nothing, so the server's clock runs on.
import { h } from "./dom";
import { msg, type Key } from "./i18n/messages";

const BID: Key[] = ["help.bid.joining", "help.bid.scoring", "help.bid.drawing", "help.bid.auction", "help.bid.clock"];
const SPIT: Key[] = ["help.spit.playing", "help.spit.spaces", "help.spit.spitting", "help.spit.rounds", "help.spit.races"];

export function rulesHelp(game: "bid" | "spit"): HTMLElement {
  const lines = game === "bid" ? BID : SPIT;
  return h(
    "details.rules-help",
    // Spit has no clock (and pauses against the computer): only Bid's runs on meanwhile.
    h("summary", msg(game === "bid" ? "help.title_clock" : "help.title")),
    h("ul", lines.map((line) => h("li", msg(line)))),
  );
}
