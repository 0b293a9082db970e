import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { buildGraph, loadRecording, validateGraph, type Graph } from "@pagepath/graph-builder";
import { importHar, readBody, readRecording, REDACTED, toHar, writeRecording } from "@pagepath/profiler";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

const T0 = Date.parse("2026-01-02T03:04:05.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const headers = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));

/** A HAR entry as Firefox writes one: no Chrome extensions, so no initiator, type or priority. */
function entry(url: string, startMs: number, o: { mime: string; text?: string; size?: number; status?: number; wait?: number; receive?: number; connect?: number; ssl?: number; request?: Record<string, string>; response?: Record<string, string>; redirectURL?: string; pageref?: string }) {
  const size = o.size ?? (o.text === undefined ? 0 : Buffer.byteLength(o.text));
  return {
    pageref: o.pageref ?? "page_1",
    startedDateTime: at(startMs),
    time: (o.connect ?? -1) + 1 + (o.wait ?? 10) + (o.receive ?? 5),
    request: { method: "GET", url, httpVersion: "HTTP/2", headers: headers(o.request ?? {}), cookies: [], queryString: [], headersSize: -1, bodySize: 0 },
    response: {
      status: o.status ?? 200, statusText: "", httpVersion: "HTTP/2", headers: headers(o.response ?? {}), cookies: [],
      content: { size, mimeType: o.mime, ...(o.text === undefined ? {} : { text: o.text }) },
      redirectURL: o.redirectURL ?? "", headersSize: -1, bodySize: size,
    },
    cache: {},
    timings: { blocked: 0, dns: -1, connect: o.connect ?? -1, ssl: o.ssl ?? -1, send: 1, wait: o.wait ?? 10, receive: o.receive ?? 5 },
  };
}

const HTML = `<!doctype html><html><head>
<link rel="stylesheet" href="/css/site.css">
<script src="https://cdn.har.test/app.js"></script>
</head><body><img src="/img/moved.png"><img src="photo.jpg"></body></html>`;

function firefoxHar() {
  return {
    log: {
      version: "1.2",
      creator: { name: "Firefox", version: "140.0" },
      browser: { name: "Firefox", version: "140.0" },
      pages: [
        { startedDateTime: at(0), id: "page_1", title: "https://www.har.test/", pageTimings: { onContentLoad: 180, onLoad: 260 } },
        { startedDateTime: at(5000), id: "page_2", title: "https://www.har.test/next", pageTimings: { onContentLoad: 5100, onLoad: 5200 } },
      ],
      entries: [
        entry("https://www.har.test/", 0, { mime: "text/html", text: HTML, connect: 30, ssl: 15, wait: 40, request: { Cookie: "session=secret", "Sec-Fetch-Dest": "document" }, response: { "Set-Cookie": "id=1" } }),
        entry("https://www.har.test/css/site.css", 80, { mime: "text/css", text: "body{font-family:x} @font-face{font-family:x;src:url(../fonts/x.woff2)}" }),
        entry("https://cdn.har.test/app.js", 81, { mime: "application/javascript", text: "fetch('/api/data.json')", connect: 20, ssl: 10 }),
        entry("https://www.har.test/img/moved.png", 82, { mime: "text/html", status: 301, redirectURL: "https://www.har.test/img/new.png" }),
        entry("https://www.har.test/img/new.png", 100, { mime: "image/png", size: 5000 }),
        entry("https://www.har.test/photo.jpg", 83, { mime: "image/jpeg", size: 20000 }),
        entry("https://www.har.test/fonts/x.woff2", 110, { mime: "font/woff2", size: 9000 }),
        entry("https://www.har.test/api/data.json", 160, { mime: "application/json", text: "{}", request: { "Sec-Fetch-Dest": "empty" } }),
        entry("data:image/png;base64,AAAA", 170, { mime: "image/png", size: 3 }),
        entry("https://www.har.test/next", 5000, { mime: "text/html", text: "<p>next</p>", pageref: "page_2" }),
      ],
    },
  };
}

/**
 * A HAR as WebPageTest exports one: no bodies, its own extensions (`_request_type`, `_priority` in
 * Chromium's net-stack names, `_initiator` as a URL with `_initiator_type` and `_initiator_line`,
 * `_socket`, `_bytesIn`) and page fields (`_URL`, `_loadTime`, `_firstContentfulPaint`).
 */
function webPageTestHar() {
  const wptEntry = (url: string, startMs: number, o: { type: string; priority: string; initiator?: string; initiatorType?: string; line?: string; socket: number; mime: string; bytes: number }) => ({
    ...entry(url, startMs, { mime: o.mime, size: o.bytes }),
    pageref: "page_1_0_1",
    _request_type: o.type,
    _priority: o.priority,
    _initiator: o.initiator ?? "",
    _initiator_type: o.initiatorType,
    _initiator_line: o.line,
    _socket: o.socket,
    _bytesIn: o.bytes + 300,
    _full_url: url,
    _protocol: "HTTP/2",
  });
  const doc = "https://www.wpt.test/";
  return {
    log: {
      version: "1.1",
      creator: { name: "WebPagetest", version: "21.07" },
      browser: { name: "Chrome", version: "140.0.0.0" },
      pages: [{ startedDateTime: at(0), id: "page_1_0_1", title: "Run 1, First View", _URL: doc, _loadTime: 900, _firstContentfulPaint: 420, pageTimings: { onContentLoad: 600, onLoad: 900, _startRender: 410 } }],
      entries: [
        wptEntry(doc, 0, { type: "Document", priority: "Highest", socket: 12, mime: "text/html", bytes: 4000 }),
        wptEntry("https://www.wpt.test/site.css", 150, { type: "Stylesheet", priority: "Highest", initiator: doc, initiatorType: "parser", line: "3", socket: 12, mime: "text/css", bytes: 2000 }),
        wptEntry("https://cdn.wpt.test/app.js", 151, { type: "Script", priority: "Medium", initiator: doc, initiatorType: "parser", line: "5", socket: 13, mime: "application/javascript", bytes: 30000 }),
        wptEntry("https://www.wpt.test/hero.jpg", 400, { type: "Image", priority: "Lowest", initiator: "https://cdn.wpt.test/app.js", initiatorType: "script", socket: 12, mime: "image/jpeg", bytes: 50000 }),
      ],
    },
  };
}

describe("pagepath import har", () => {
  it("makes a Firefox HAR's first page a recording: initiators inferred from the responses that name each URL, redirects joined, filler for missing bodies, credentials redacted", () => {
    const { recording: r, warnings } = importHar(firefoxHar(), "firefox.har");
    const byUrl = new Map(r.archive.map((e) => [e.url, e]));
    assert.equal(r.manifest.url, "https://www.har.test/");
    assert.equal(r.manifest.status, "complete");
    assert.equal(r.manifest.lifecycle.load, 260);
    assert.equal(r.manifest.lifecycle.domContentLoaded, 180);
    assert.equal(r.manifest.imported?.format, "har");
    assert.equal(r.archive.length, 8, r.archive.map((e) => e.url).join("\n"));
    assert.ok(warnings.some((w) => /1 requests of the file's other pages/.test(w)), warnings.join("\n"));
    assert.ok(warnings.some((w) => /other than http/.test(w)), warnings.join("\n"));

    const css = byUrl.get("https://www.har.test/css/site.css")!;
    assert.deepEqual([css.initiator.type, css.initiator.url, css.initiator.inferred], ["parser", "https://www.har.test/", "referencing-response"]);
    assert.equal(css.initiator.lineNumber, 1, "the document's line that names it");
    assert.equal(css.resourceType, "Stylesheet");
    const font = byUrl.get("https://www.har.test/fonts/x.woff2")!;
    assert.equal(font.initiator.url, "https://www.har.test/css/site.css", "the style sheet named the font");
    const api = byUrl.get("https://www.har.test/api/data.json")!;
    assert.deepEqual([api.initiator.type, api.initiator.url, api.resourceType], ["script", "https://cdn.har.test/app.js", "Fetch"]);

    const moved = byUrl.get("https://www.har.test/img/moved.png")!;
    const moving = byUrl.get("https://www.har.test/img/new.png")!;
    assert.equal(moving.requestId, moved.requestId, "the redirect's target is the next hop of the same request");
    assert.equal(moving.id, `${moved.requestId}#1`);
    assert.equal(moved.redirectedTo, moving.url);
    assert.equal(moved.body, null);

    const photo = byUrl.get("https://www.har.test/photo.jpg")!;
    assert.equal(photo.body?.size, 20000);
    assert.equal(photo.body?.placeholder, true);
    assert.ok(warnings.some((w) => /3 responses without their bytes/.test(w)), warnings.join("\n"));
    const doc = byUrl.get("https://www.har.test/")!;
    assert.equal(r.bodies.get(doc.body!.sha256)!.toString("utf8"), HTML);
    assert.equal(doc.requestHeaders.Cookie, REDACTED);
    assert.equal(doc.response!.headers["Set-Cookie"], REDACTED);
    assert.equal(importHar(firefoxHar(), "f.har", { keepCredentials: true }).recording.archive[0]!.requestHeaders.Cookie, "session=secret");

    // 30 ms connect with 15 ms of TLS: a 15 ms TCP handshake; 40 ms to the first byte is 25 ms of server time.
    assert.equal(doc.serverDelay.ms, 25);
    assert.equal(doc.serverDelay.method, "ttfb-minus-handshake-rtt");
    assert.ok(r.manifest.imported!.assumptions.some((a) => /initiators: 6 of the 6 requests besides the page's document name none/.test(a)), r.manifest.imported!.assumptions.join("\n"));
  });

  it("reads a WebPageTest HAR's own initiators, priorities, resource types and sockets, and builds a graph whose edges follow them", () => {
    const { recording: r } = importHar(webPageTestHar(), "wpt.har");
    const byUrl = new Map(r.archive.map((e) => [e.url, e]));
    assert.equal(r.manifest.lifecycle.load, 900);
    assert.equal(r.manifest.lifecycle.firstContentfulPaint, 420);
    const css = byUrl.get("https://www.wpt.test/site.css")!;
    assert.deepEqual([css.initiator.type, css.initiator.url, css.initiator.lineNumber, css.initiator.inferred], ["parser", "https://www.wpt.test/", 3, undefined], "the file's initiator, not a guess");
    assert.deepEqual([css.resourceType, css.priority.final, css.response!.connectionId], ["Stylesheet", "VeryHigh", "12"]);
    const image = byUrl.get("https://www.wpt.test/hero.jpg")!;
    assert.deepEqual([image.initiator.type, image.initiator.url, image.resourceType, image.priority.final], ["script", "https://cdn.wpt.test/app.js", "Image", "VeryLow"]);
    assert.equal(byUrl.get("https://cdn.wpt.test/app.js")!.priority.final, "Medium");
    assert.equal(image.body?.placeholder, true, "WebPageTest exports no bodies: filler of the stated size");

    const dir = join(tempDir("import-wpt"), "rec");
    writeRecording(dir, r);
    const g = buildGraph(loadRecording(dir));
    assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), "imported"), []);
    const fetched = (url: string) => g.nodes.find((n) => n.kind === "resource" && n.resource!.url === url)!.id;
    const hero = fetched("https://www.wpt.test/hero.jpg");
    assert.ok(reaches(g, fetched("https://cdn.wpt.test/app.js"), hero), "the image hangs off the script that the file says requested it");
    assert.ok(!reaches(g, fetched("https://www.wpt.test/site.css"), hero), "not off the style sheet before it in time");
  });

  it("builds a graph whose guessed edges say so and whose DOMContentLoaded waits for the document's blocking script", () => {
    const dir = join(tempDir("import-har"), "rec");
    const { recording } = importHar(firefoxHar(), "firefox.har");
    writeRecording(dir, recording);
    assert.equal(readBody(dir, recording.archive[0]!.body!.sha256).toString("utf8"), HTML);
    const g = buildGraph(loadRecording(dir));
    assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), "imported"), []);
    assert.equal(g.mode, "network-only");
    const node = (label: RegExp) => g.nodes.find((n) => label.test(n.label))!;
    const into = g.edges.filter((e) => e.to === node(/site\.css$/).id);
    assert.deepEqual(into.map((e) => [e.rule, e.how]), [["R1", "inferred"]], "the parser's edge to the style sheet is a guess");
    const dcl = g.nodes.find((n) => n.kind === "dcl" && n.frameId === g.mainFrame)!;
    assert.ok(reaches(g, node(/^script app\.js/).id, dcl.id), "DOMContentLoaded waits for the parser-blocking app.js to run");
    assert.ok(!reaches(g, node(/photo\.jpg/).id, dcl.id), "but not for an image");

    // Exported again, it imports to the same requests, bodies and initiators (guessed again, not taken for Chrome's).
    const again = importHar(toHar(readRecording(dir), (sha) => readBody(dir, sha)), "again.har").recording;
    const shape = (a: typeof recording.archive) => a.map((e) => [e.id, e.url, e.resourceType, e.frameId, e.initiator.url, e.initiator.inferred, e.body?.sha256, e.serverDelay.ms]);
    assert.deepEqual(shape(again.archive), shape(recording.archive));
  });

  it("reports a file that is not a HAR, or an entry that is wrong, by file and JSON pointer, and imports the others", async () => {
    const base = tempDir("import-har-bad");
    const good = join(base, "good.har");
    writeFileSync(good, JSON.stringify(firefoxHar()));
    const notJson = join(base, "broken.har");
    writeFileSync(notJson, "{\"log\": ");
    const badUrl = firefoxHar();
    (badUrl.log.entries[2]!.request as { url: string }).url = "not a url";
    const badFile = join(base, "bad-url.har");
    writeFileSync(badFile, JSON.stringify(badUrl));
    const noEntries = join(base, "no-entries.har");
    writeFileSync(noEntries, JSON.stringify({ log: { version: "1.2" } }));
    const out = join(base, "recordings");
    const r = await runCli(["import", "har", notJson, good, badFile, noEntries, join(base, "missing.har"), "--out", out]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /4 of 5 not imported/);
    assert.match(r.stderr, /broken\.har: not JSON/);
    assert.match(r.stderr, /bad-url\.har: \/log\/entries\/2\/request\/url: "not a url" is not a URL/);
    assert.match(r.stderr, /no-entries\.har: \/log\/entries: missing or not an array/);
    assert.match(r.stderr, /missing\.har: cannot read: ENOENT/);
    assert.match(r.stdout, /good\.har -> .*www\.har\.test-[0-9a-f]{8} {2}\(complete\)\n {2}8 requests, 7 bodies, 6 initiators inferred/);
    assert.equal(readdirSync(out).filter((d) => !d.endsWith(".partial")).length, 1);
    const again = await runCli(["import", "har", good, "--out", out]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists \(--force imports over it\)/);
    assert.equal((await runCli(["import", "har", good, "--out", out, "--force"])).code, 0);
    const help = await runCli(["help", "import", "har"]);
    assert.match(help.stdout, /usage: pagepath import har FILE\.har/);
  });

});

function reaches(g: Graph, from: string, to: string): boolean {
  const out = new Map<string, string[]>();
  for (const e of g.edges) out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const n = stack.pop()!;
    if (n === to) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...(out.get(n) ?? []));
  }
  return false;
}

