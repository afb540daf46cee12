// Check the message catalogs (src/i18n/catalogs/*.json), run by `npm run typecheck`: every
// message parses as ICU; an apostrophe is always a literal one (ICU would read one before
// "{" as a quote, and drop it); another language has no key English lacks, and each of its
// messages takes the same placeholders as the English one. A key a language lacks is shown
// in English (and said on the console), so it is listed here, not refused.
import { readdirSync, readFileSync } from "node:fs";
import { IntlMessageFormat } from "intl-messageformat";

const DIR = "src/i18n/catalogs";
const problems = [];

/** The placeholders of a parsed message, and its literal text, walked through plurals and selects. */
function walk(elements, names = new Set(), literal = []) {
  for (const element of elements) {
    if (element.type === 0) literal.push(element.value);
    if ("value" in element && element.type !== 0 && element.type !== 7) names.add(element.value);
    for (const option of Object.values(element.options ?? {})) walk(option.value, names, literal);
    if (element.children) walk(element.children, names, literal);
  }
  return { names, literal: literal.join("") };
}

function parsed(code, key, text) {
  try {
    const found = walk(new IntlMessageFormat(text, code, undefined, { ignoreTag: true }).getAst());
    const apostrophes = (s) => s.split("'").length - 1;
    if (apostrophes(found.literal) !== apostrophes(text)) problems.push(`${code} ${key}: an apostrophe is read as ICU quoting`);
    return found.names;
  } catch (error) {
    problems.push(`${code} ${key}: ${error.message}`);
    return new Set();
  }
}

const english = JSON.parse(readFileSync(`${DIR}/en.json`, "utf8"));
const englishNames = Object.fromEntries(Object.entries(english).map(([key, text]) => [key, parsed("en", key, text)]));
for (const file of readdirSync(DIR).filter((f) => f.endsWith(".json") && f !== "en.json")) {
  const code = file.slice(0, -".json".length);
  const catalog = JSON.parse(readFileSync(`${DIR}/${file}`, "utf8"));
  for (const [key, text] of Object.entries(catalog)) {
    if (!(key in english)) {
      problems.push(`${code} ${key}: not an English key`);
      continue;
    }
    const names = [...parsed(code, key, text)].sort().join(", ");
    const wanted = [...englishNames[key]].sort().join(", ");
    if (names !== wanted) problems.push(`${code} ${key}: placeholders {${names}}, English has {${wanted}}`);
  }
  const missing = Object.keys(english).filter((key) => !(key in catalog));
  if (missing.length) console.log(`${code}: ${missing.length} of ${Object.keys(english).length} messages not translated yet (shown in English)`);
}
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
