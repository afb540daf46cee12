// The languages the page speaks: one line each. A language is added with its catalog
// (catalogs/<code>.json, the English keys translated) and one line here; its `locale` is what
// Intl formats its numbers, dates and plurals with.
import type { Catalog } from "./messages";
import ar from "./catalogs/ar.json";
import en from "./catalogs/en.json";
import ko from "./catalogs/ko.json";

export interface Language {
  code: string; // a BCP 47 tag: <html lang>, the stored choice, navigator.languages matched to it
  name: string; // in its own words, as the language menu lists it
  dir: "ltr" | "rtl";
  locale: string; // for Intl (Arabic: "ar-u-nu-latn", Western digits as docs/translations.md says)
  load(): Promise<Catalog>; // bundled by esbuild either way (no code splitting): one app file
}

export const ENGLISH: Language = { code: "en", name: "English", dir: "ltr", locale: "en", load: async () => en };

export const LANGUAGES: readonly Language[] = [
  ENGLISH,
  { code: "ar", name: "العربية", dir: "rtl", locale: "ar-u-nu-latn", load: async () => ar },
  { code: "ko", name: "한국어", dir: "ltr", locale: "ko", load: async () => ko },
];

/** The registered language of `code` (its primary subtag will do: "en-GB" is English), or null. */
export function languageOf(code: string): Language | null {
  const tag = code.toLowerCase();
  return LANGUAGES.find((l) => l.code.toLowerCase() === tag) ?? LANGUAGES.find((l) => l.code.toLowerCase() === tag.split("-")[0]) ?? null;
}
