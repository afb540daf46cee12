// This device in a few words for the Devices screen ("Chromium on Linux", "Safari on
// iPhone"): from the browser's client hints where it gives them, else its user agent. Sent
// as the device's name, so it is text in the language of the moment.
import { t } from "./i18n/messages";

interface Hints {
  brands?: { brand: string }[];
  platform?: string;
}

// Checked in order: Edge, Opera and Chrome on iOS also say "Chrome" or "Safari".
const BROWSERS: [RegExp, string][] = [
  [/Edg(A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/CriOS\//, "Chrome"],
  [/Chromium\//, "Chromium"],
  [/Chrome\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Macintosh|Mac OS X/, "Mac"],
  [/Linux/, "Linux"],
];
const BRAND_NAMES: Record<string, string> = { "Google Chrome": "Chrome", "Microsoft Edge": "Edge", HeadlessChrome: "Chromium" };
const PLATFORM_NAMES: Record<string, string> = { macOS: "Mac", "Chrome OS": "ChromeOS", "Chromium OS": "ChromeOS" };

/** "Browser on system", each as the device names itself, or "a browser" when unknown. */
export function deviceName(userAgent: string, hints?: Hints): string {
  return t("device.name", { browser: browserOf(userAgent, hints), system: systemOf(userAgent, hints) });
}

/** This device's name, for a sign-up or a sign-in. */
export function thisDevice(): string {
  const hints = (navigator as Navigator & { userAgentData?: Hints }).userAgentData;
  return deviceName(navigator.userAgent, hints);
}

function browserOf(userAgent: string, hints?: Hints): string {
  // A brand that is neither the engine nor the made-up one ("Not A;Brand") names the browser.
  const brands = (hints?.brands ?? []).map((b) => b.brand).filter((b) => !/not.?a.?brand/i.test(b));
  const named = brands.find((b) => b !== "Chromium");
  if (named) return BRAND_NAMES[named] ?? named;
  if (brands.length) return "Chromium";
  return BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? t("device.unknown_browser");
}

function systemOf(userAgent: string, hints?: Hints): string {
  if (hints?.platform) return PLATFORM_NAMES[hints.platform] ?? hints.platform;
  return SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? t("device.unknown_system");
}
