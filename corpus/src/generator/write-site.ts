import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { fixtureDir } from "../fixtures.js";
import type { RouteConfig, SiteConfig } from "../site-config.js";
import type { Domain, Resource, ScriptLoading, SiteModel, TimerChain } from "./model.js";
import { FONT_BYTES, PIXEL_BYTES } from "./params.js";

const FILLER = "pagepath generated filler: bytes that stand for the real content of a page of this size. ";
/** 1x1 transparent GIF89a. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");
const ATTRIBUTE: Record<ScriptLoading, string> = { sync: "", async: " async", defer: " defer", module: ' type="module"' };
const ROLE: Record<Domain["role"], string> = { main: "main origin", shard: "shard of the main site", "third-party": "third party", ad: "ad server" };

/**
 * Writes a generated page as a site directory serveSite can serve: site.json (entry, hosts, a route
 * per resource with its server delay and CORS header) and hosts/<host>/<path> files of exactly the
 * sizes the model chose, whose HTML, CSS and JS really request what the model says they request.
 * Only hosts/ and site.json are replaced; anything else in dir is left alone.
 */
export function writeGeneratedSite(model: SiteModel, dir: string): void {
  const font = readFileSync(join(fixtureDir("multi-origin"), "hosts/fonts.fixture.test/fonts/open-sans-regular.woff2"));
  if (font.length !== FONT_BYTES) throw new Error(`the bundled font is ${font.length} bytes, the generator expects ${FONT_BYTES}`);
  if (PIXEL.length !== PIXEL_BYTES) throw new Error(`the tracking pixel is ${PIXEL.length} bytes, the generator expects ${PIXEL_BYTES}`);
  rmSync(join(dir, "hosts"), { recursive: true, force: true });
  const routes: Record<string, RouteConfig> = {};
  for (const r of model.resources) {
    const file = join(dir, "hosts", r.host, r.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, body(model, r, font));
    const route: RouteConfig = {};
    if (r.serverDelayMs > 0) route.delayMs = r.serverDelayMs;
    if (r.cors) route.headers = { "access-control-allow-origin": "*" };
    if (Object.keys(route).length > 0) routes[`${r.host}${r.path}`] = route;
  }
  const config: SiteConfig = {
    description: `Generated page ${model.index} of seed ${model.seed}: ${model.resources.length} resources on ${model.domains.length} domains.`,
    entry: model.entry,
    hosts: Object.fromEntries(model.domains.map((d) => [d.host, { role: ROLE[d.role] + (d.cdn ? " (CDN)" : "") }])),
    routes,
    mounts: [],
    cacheControl: "public, max-age=3600",
  };
  writeFileSync(join(dir, "site.json"), JSON.stringify(config, null, 2) + "\n");
}

function body(model: SiteModel, r: Resource, font: Buffer): Buffer {
  switch (r.type) {
    case "html": return Buffer.from(html(model, r));
    case "css": return Buffer.from(css(model, r));
    case "js": return Buffer.from(script(model, r));
    case "json": return Buffer.from(fit(r, `{"id":"${r.id}","pad":"`, `"}`, "", ""));
    case "image": return png(r);
    case "font": return font;
    case "pixel": return PIXEL;
  }
}

/** before + padding + after, exactly r.bytes long; the padding is a comment (open ... close) when it fits one. */
function fit(r: Resource, before: string, after: string, open: string, close: string): string {
  const room = r.bytes - before.length - after.length;
  if (room < 0) throw new Error(`${r.url}: its content needs ${r.bytes - room} bytes, the model gave it ${r.bytes}`);
  const pad = room >= open.length + close.length ? open + filler(room - open.length - close.length) + close : " ".repeat(room);
  return before + pad + after;
}

function filler(n: number): string {
  return Buffer.alloc(n, FILLER).toString("latin1");
}

function html(model: SiteModel, doc: Resource): string {
  const inDoc = model.resources.filter((r) => r.frame === doc.id && r.request.kind === "tag");
  const sheets = new Set(model.resources.filter((r) => r.frame === doc.id && r.type === "css").map((r) => r.id));
  const styled = model.resources.filter((r) => r.request.kind === "css" && sheets.has(r.request.stylesheet));
  const tags = (where: "head" | "body") => inDoc.filter((r) => r.request.kind === "tag" && r.request.location === where).map(tag);
  const before = [
    "<!doctype html>",
    "<html>",
    "<head>",
    '<meta charset="utf-8">',
    `<title>pagepath generated ${doc.frame === null ? "page" : "frame"} ${doc.id} (seed ${model.seed}, page ${model.index})</title>`,
    ...tags("head"),
    "</head>",
    "<body>",
    // an element per font and background, or the browser would never fetch them
    ...styled.map((r) => (r.type === "font" ? `<p class="f-${r.id}">Text set in font ${r.id}</p>` : `<div class="bg-${r.id}"></div>`)),
    ...tags("body"),
    "",
  ].join("\n");
  return fit(doc, before, "\n</body>\n</html>\n", "<!-- ", " -->");
}

function tag(r: Resource): string {
  const loading = r.request.kind === "tag" ? r.request.loading : null;
  switch (r.type) {
    case "css": return `<link rel="stylesheet" href="${r.url}">`;
    case "js": return `<script src="${r.url}"${ATTRIBUTE[loading ?? "sync"]}></script>`;
    case "html": return `<iframe src="${r.url}" width="300" height="250" title="${r.id}"></iframe>`;
    case "pixel": return `<img src="${r.url}" alt="" width="1" height="1">`;
    case "image": return `<img src="${r.url}" alt="${r.id}" width="16" height="16">`;
    default: throw new Error(`${r.url}: a ${r.type} is never requested by a tag`);
  }
}

function css(model: SiteModel, sheet: Resource): string {
  const rules = model.resources.flatMap((r) => {
    if (r.request.kind !== "css" || r.request.stylesheet !== sheet.id) return [];
    if (r.type !== "font") return [`.bg-${r.id} { width: 16px; height: 16px; background-image: url("${r.url}"); }`];
    return [
      `@font-face { font-family: "f-${r.id}"; src: url("${r.url}") format("woff2"); }`,
      `.f-${r.id} { font-family: "f-${r.id}", sans-serif; }`,
    ];
  });
  const before = [`/* pagepath generated stylesheet ${sheet.id} */`, "body { margin: 8px; font-family: sans-serif; }", ...rules, ""].join("\n");
  return fit(sheet, before, "\n", "/* ", " */");
}

/** The requests a script makes as it runs, or in a timer callback. */
function call(r: Resource): string {
  const api = r.request.kind === "script" ? r.request.api : "element";
  const helper = r.type === "js" ? "script" : api === "element" ? "image" : api === "fetch" ? "fetchText" : "xhr";
  return `${helper}("${r.url}");`;
}

function script(model: SiteModel, s: Resource): string {
  const mine = model.resources.filter((r) => r.request.kind === "script" && r.request.script === s.id);
  const now = mine.filter((r) => r.request.kind === "script" && r.request.timer === null).map(call);
  const chain = (c: TimerChain, step: number): string[] => {
    if (step === c.delaysMs.length) return [];
    const loads = mine.filter((r) => r.request.kind === "script" && r.request.timer?.chain === c.id && r.request.timer.step === step).map(call);
    const inner = [...loads, ...chain(c, step + 1)].map((line) => `  ${line}`);
    return [`setTimeout(function timer${c.id}step${step}() {`, ...inner, `}, ${c.delaysMs[step]});`];
  };
  const timers = model.timers.filter((c) => c.script === s.id).flatMap((c) => chain(c, 0));
  const before = [
    `// pagepath generated script ${s.id}`,
    "(function () {",
    '  function script(url) { var s = document.createElement("script"); s.src = url; (document.head || document.documentElement).appendChild(s); }',
    "  function image(url) { new Image().src = url; }",
    '  function xhr(url) { var x = new XMLHttpRequest(); x.open("GET", url); x.send(); }',
    "  function fetchText(url) { fetch(url).then(function (r) { return r.text(); }); }",
    ...[...now, ...timers].map((line) => `  ${line}`),
    "})();",
    "",
  ].join("\n");
  return fit(s, before, "\n", "/* ", " */");
}

/** A 16x16 PNG of one colour, padded to size with a tEXt chunk, which decoders skip. */
function png(r: Resource): Buffer {
  const side = 16;
  const n = Number(r.id.slice(1));
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(side * 3, Buffer.from([(n * 47) % 256, (n * 89) % 256, (n * 151) % 256]))]);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(Array(side).fill(row))))];
  const keyword = "Comment\0";
  const used = parts.reduce((s, b) => s + b.length, 0) + 2 * 12 + keyword.length;
  if (r.bytes < used) throw new Error(`${r.url}: a PNG needs ${used} bytes, the model gave it ${r.bytes}`);
  parts.push(chunk("tEXt", Buffer.from(keyword + filler(r.bytes - used), "latin1")), chunk("IEND", Buffer.alloc(0)));
  return Buffer.concat(parts);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
