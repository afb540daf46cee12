// Numbers, dates and times in the current language's locale, through Intl (formatters kept
// per locale and options). Figures have no grouping: a stamp reads "12345.678 ms" as before.
import { currentLanguage } from "./messages";

const numbers = new Map<string, Intl.NumberFormat>();
const dates = new Map<string, Intl.DateTimeFormat>();
const relatives = new Map<string, Intl.RelativeTimeFormat>();

function kept<F>(cache: Map<string, F>, options: object, make: (locale: string) => F): F {
  const id = `${currentLanguage().locale}\n${JSON.stringify(options)}`;
  let found = cache.get(id);
  if (!found) cache.set(id, (found = make(currentLanguage().locale)));
  return found;
}

/** `value` with exactly `digits` decimals (rounded half away from zero, as toFixed), no grouping. */
export function decimal(value: number, digits = 0, minimumIntegerDigits = 1): string {
  const options = { minimumFractionDigits: digits, maximumFractionDigits: digits, minimumIntegerDigits, useGrouping: false };
  return kept(numbers, options, (locale) => new Intl.NumberFormat(locale, options)).format(value);
}

/** A date (and time) as `options` ask ({dateStyle: "medium"}, say). */
export function dateText(when: Date, options: Intl.DateTimeFormatOptions): string {
  return kept(dates, options, (locale) => new Intl.DateTimeFormat(locale, options)).format(when);
}

/** "5 minutes ago", "yesterday", "now". */
export function relativeText(value: number, unit: Intl.RelativeTimeFormatUnit): string {
  const options = { numeric: "auto" } as const;
  return kept(relatives, options, (locale) => new Intl.RelativeTimeFormat(locale, options)).format(value, unit);
}
