// Build dist/, what the gateway serves at /: src/main.ts and static/style.css bundled, and
// the icons drawn, each under a name with its content's hash (cached for good: a new build
// has new names); index.html and the manifest pointed at those names; the service worker
// given the list of the app shell it keeps for offline use. Names without a hash
// (index.html, manifest.webmanifest, sw.js) are the ones a browser must check again.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { iconPng } from "./icons.mjs";

const REWRITTEN = ["index.html", "manifest.webmanifest"]; // they name hashed files by their plain names
const ICON_SIZES = [192, 512];

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist");
const result = await build({
  entryPoints: { app: "src/main.ts", style: "static/style.css" },
  entryNames: "[name].[hash]",
  outdir: "dist",
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});

/** Plain name (as static/ files say it) → the name with its hash. */
const hashed = new Map();
for (const [output, { entryPoint }] of Object.entries(result.metafile.outputs)) {
  if (!entryPoint) continue; // a source map
  const name = basename(output);
  hashed.set(name.replace(/\.[^.]+(\.[^.]+)$/, "$1"), name); // app.ABCD1234.js → app.js
}
for (const size of ICON_SIZES) {
  const png = iconPng(size);
  const name = `icon-${size}.${contentHash(png)}.png`;
  writeFileSync(`dist/${name}`, png);
  hashed.set(`icon-${size}.png`, name);
}

cpSync("static", "dist", { recursive: true, filter: (path) => !["style.css", "sw.js"].includes(basename(path)) });
for (const file of REWRITTEN) {
  let text = readFileSync(`static/${file}`, "utf8");
  for (const [plain, name] of hashed) text = text.replaceAll(`/${plain}"`, `/${name}"`);
  writeFileSync(`dist/${file}`, text);
}

const shell = ["/", "/manifest.webmanifest", ...[...hashed.values()].map((name) => `/${name}`)];
const worker = readFileSync("static/sw.js", "utf8");
const version = contentHash(Buffer.from(JSON.stringify(shell) + worker));
writeFileSync("dist/sw.js", `const SHELL = ${JSON.stringify(shell)};\nconst VERSION = "${version}";\n${worker}`);

/** Eight characters of the content's SHA-256, in esbuild's hash alphabet (A–Z, 2–7). */
function contentHash(bytes) {
  const digest = createHash("sha256").update(bytes).digest();
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  return Array.from(digest.subarray(0, 8), (byte) => alphabet[byte & 31]).join("");
}
