// Which language the page speaks: the reader's choice, kept in localStorage; on a first visit
// the first of the browser's languages (navigator.languages) the page has, else English. The
// menu is a labelled <select>, each language named in its own words.
import { h } from "../dom";
import { ENGLISH, LANGUAGES, languageOf, type Language } from "./languages";
import { currentLanguage, msg, useLanguage } from "./messages";

const STORED = "pf.language";

/** The language chosen before, or the browser's first one the page has, or English. */
export function chosenLanguage(): Language {
  const stored = localStorage.getItem(STORED);
  const kept = stored ? languageOf(stored) : null;
  if (kept) return kept;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const found = tag ? languageOf(tag) : null;
    if (found) return found;
  }
  return ENGLISH;
}

/**
 * The language menu (id `language`): choosing one keeps it, switches the page's words and
 * <html lang dir>, then calls `changed` (the page formats its words again in place).
 */
export function languageMenu(changed: () => void): HTMLElement {
  const select = h(
    "select#language",
    LANGUAGES.map((l) => h("option", { value: l.code, lang: l.code, selected: l.code === currentLanguage().code }, l.name)),
  ) as HTMLSelectElement;
  select.addEventListener("change", () => {
    const next = languageOf(select.value);
    if (!next) return;
    localStorage.setItem(STORED, next.code);
    void useLanguage(next).then(changed);
  });
  return h("div.language-menu", h("label", { for: "language" }, msg("language.label")), select);
}
