// The page's words: ICU messages (placeholders, plurals) from the chosen language's catalog,
// formatted in its locale, English where its catalog lacks a key (said on the console, so the
// browser tests notice). Code holds keys; a Message is a key with its values, formatted when
// shown and again whenever the language changes (live.ts).
import { IntlMessageFormat } from "intl-messageformat";
import en from "./catalogs/en.json";
import { ENGLISH, type Language } from "./languages";

export type Key = keyof typeof en;
export type Catalog = Partial<Record<Key, string>>;

/** A message's value: text, a figure, another message, a node (rich messages), or a
 * function giving text when the message is formatted (a figure in the locale of that moment). */
export type Value = string | number | Message | Node | (() => string);
export type Values = Record<string, Value>;

/** A key and its values, formatted when it is shown. */
export class Message {
  constructor(
    readonly key: Key,
    readonly values: Values = {},
  ) {}

  /** Whether a value is a node: shown as parts in an element of its own (live.ts). */
  get rich(): boolean {
    return Object.values(this.values).some((v) => v instanceof Node);
  }
}

/** What a piece of the page says: a message, or text that is no words of the page (a name). */
export type Words = Message | string;

export function msg(key: Key, values?: Values): Message {
  return new Message(key, values);
}

let language: Language = ENGLISH;
let catalog: Catalog = en;
const formatters = new Map<string, IntlMessageFormat>(); // by language and key
const FIRST_STRONG_ISOLATE = "\u2068";
const POP_ISOLATE = "\u2069";

export function currentLanguage(): Language {
  return language;
}

/** Switch to `next` (its catalog loaded first); <html> carries its lang and dir. */
export async function useLanguage(next: Language): Promise<void> {
  catalog = await next.load();
  language = next;
  document.documentElement.lang = next.code;
  document.documentElement.dir = next.dir;
}

/** Whether `key` is a key of the catalogs: for words looked up by a code (a refusal's reason). */
export function isKey(key: string): key is Key {
  return Object.hasOwn(en, key);
}

function formatter(key: Key): IntlMessageFormat {
  const id = `${language.code}\n${key}`;
  let found = formatters.get(id);
  if (!found) {
    let text = catalog[key];
    if (text === undefined) {
      console.error(`i18n: "${key}" is missing from the ${language.code} catalog; shown in English`);
      text = en[key];
    }
    found = new IntlMessageFormat(text, language.locale, undefined, { ignoreTag: true });
    formatters.set(id, found);
  }
  return found;
}

/** The values as the formatter takes them: messages formatted, functions called, text isolated
 * in a right-to-left language (a Latin name or "[3|5]" keeps its order inside Arabic). */
function resolved(values: Values): Record<string, string | number | Node> {
  const isolate = language.dir === "rtl";
  const out: Record<string, string | number | Node> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value instanceof Message) out[name] = textOf(value);
    else if (typeof value === "function") out[name] = isolate ? FIRST_STRONG_ISOLATE + value() + POP_ISOLATE : value();
    else if (typeof value === "string") out[name] = isolate ? FIRST_STRONG_ISOLATE + value + POP_ISOLATE : value;
    else out[name] = value;
  }
  return out;
}

/** The message as parts: text, and the nodes its values hold. */
export function parts(message: Message): (string | Node)[] {
  const isolate = language.dir === "rtl";
  return formatter(message.key)
    .formatToParts<Node>(resolved(message.values))
    .flatMap((part) => (typeof part.value === "string" ? [part.value] : isolate ? [FIRST_STRONG_ISOLATE, part.value, POP_ISOLATE] : [part.value]));
}

/** The message of `key` as text in the current language. */
export function t(key: Key, values?: Values): string {
  return textOf(msg(key, values));
}

/** Words as text in the current language (a node value counts as its text). */
export function textOf(words: Words): string {
  if (typeof words === "string") return words;
  return parts(words)
    .map((part) => (typeof part === "string" ? part : (part.textContent ?? "")))
    .join("");
}
