// A voided match and a timing fault in the page's language. The server gives a void's kind
// as a code (a timing fault's kind, aborted, log_full, abandoned) and its own sentence, which
// begins with that code ("event_loop_lag of 154.2 ms (tolerance 50 ms)"); the page words the
// code, so the reason reads in every language.
import { isKey, msg, type Words } from "./i18n/messages";

/** Why a match was voided: `kind`, or the code its `sentence` begins with, in words. */
export function voidWords(sentence: string, kind = ""): Words {
  const code = kind || (/^[a-z_]+/.exec(sentence)?.[0] ?? "");
  const key = `void.${code}`;
  if (isKey(key)) return msg(key);
  return sentence || msg("end.not_given");
}

/** A timing fault's kind as a short phrase ("a stall of the server's clock"). */
export function faultWords(kind: string): Words {
  const key = `fault.${kind}`;
  return isKey(key) ? msg(key) : kind || "?";
}
