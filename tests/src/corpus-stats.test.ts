import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  cdf,
  cdfSvg,
  distribution,
  mimeClass,
  quantile,
  siteMetrics,
  statsReport,
  summarise,
  THESIS,
  type EntryLike,
  type GraphLike,
  type RecordingLike,
  type RunningSite,
  type StatsReport,
} from "@pagepath/corpus";
import { readRecording, recordPage, writeRecording, type ArchiveEntry } from "@pagepath/profiler";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";

describe("quantiles and CDFs", () => {
  it("interpolates between the closest ranks", () => {
    assert.equal(quantile([5, 1, 4, 2, 3], 0.5), 3);
    assert.equal(quantile([4, 1, 3, 2], 0.5), 2.5);
    const zeroToTen = Array.from({ length: 11 }, (_, i) => i);
    assert.equal(quantile(zeroToTen, 0.1), 1);
    assert.equal(quantile(zeroToTen, 0.9), 9);
    assert.equal(quantile([7], 0.9), 7);
    assert.ok(Number.isNaN(quantile([], 0.5)));
  });

  it("gives one CDF point per distinct value", () => {
    assert.deepEqual(cdf([3, 1, 2, 2]), [{ x: 1, p: 0.25 }, { x: 2, p: 0.75 }, { x: 3, p: 1 }]);
    assert.deepEqual(cdf([]), []);
  });

  it("thins a long CDF without losing its ends or its order", () => {
    const pts = cdf(Array.from({ length: 5000 }, (_, i) => i), 100);
    assert.ok(pts.length <= 101, `${pts.length} points`);
    assert.deepEqual(pts.at(-1), { x: 4999, p: 1 });
    pts.slice(1).forEach((p, i) => assert.ok(p.x > pts[i]!.x && p.p > pts[i]!.p));
  });

  it("summarises a distribution", () => {
    const d = distribution([8, 2, 6, 4])!;
    assert.deepEqual({ n: d.n, min: d.min, median: d.median, max: d.max, mean: d.mean }, { n: 4, min: 2, median: 5, max: 8, mean: 5 });
    for (const [got, want] of [[d.p10, 2.6], [d.p90, 7.4], [d.p95, 7.7]] as const) assert.ok(Math.abs(got - want) < 1e-9, `${got} != ${want}`);
    assert.equal(distribution([]), null);
  });
});

type EntryOptions = Partial<EntryLike> & { mime?: string; bytes?: number; by?: [string, string | null] };

const entry = (id: string, url: string, { mime = "text/plain", bytes = 0, by = ["parser", "https://www.a.test/"], ...fields }: EntryOptions = {}): EntryLike => ({
  id,
  url,
  resourceType: "Other",
  fromCache: null,
  redirectedTo: null,
  failure: null,
  sizes: { encodedDataLength: null, bodySize: bytes },
  body: null,
  initiator: { type: by[0], url: by[1] },
  response: { mimeType: mime },
  ...fields,
});

/** A page on five hosts with one iframe, plus entries that are not network fetches. */
const page: RecordingLike = {
  manifest: {
    url: "https://www.a.test/",
    frameTree: { id: "F0", parentId: null, url: "https://www.a.test/", children: [{ id: "F1", parentId: "F0", url: "https://ads.test/frame.html", children: [] }] },
    // F2 came and went before the end: not in the final frame tree, still an iframe the page loaded.
    lifecycle: { frames: [{ frameId: "F0", url: "", parentFrameId: null, domContentLoaded: 1, load: 2 }, { frameId: "F2", url: "about:blank", parentFrameId: "F0", domContentLoaded: null, load: null }] },
  },
  archive: [
    entry("main", "https://www.a.test/", { mime: "text/html", bytes: 1000, by: ["other", null] }),
    entry("css", "https://static.a.test/s.css", { mime: "text/css", bytes: 200 }),
    entry("font", "https://fonts.cdn.test/f.woff2", { mime: "font/woff2", bytes: 5000, by: ["parser", "https://static.a.test/s.css"] }),
    entry("js", "https://static.a.test/app.js", { mime: "application/javascript", bytes: 300 }),
    entry("img", "https://img.a.test/x.png", { mime: "image/png", bytes: 100, by: ["script", "https://static.a.test/app.js"] }),
    entry("hop", "https://www.a.test/r", { redirectedTo: "https://static.a.test/r.png" }),
    entry("hop#1", "https://static.a.test/r.png", { resourceType: "Image", bytes: 50 }),
    entry("cached", "https://static.a.test/s.css", { mime: "text/css", bytes: 200, fromCache: "memory" }),
    entry("failed", "https://www.a.test/gone", { response: null, failure: { errorText: "net::ERR_FAILED", canceled: false, blockedReason: null } }),
    entry("inline", "data:image/png;base64,AAAA", { mime: "image/png", bytes: 3 }),
    entry("frame", "https://ads.test/frame.html", { mime: "text/html", bytes: 400 }),
  ],
};

const graph: GraphLike = {
  nodes: [
    { id: "dl0", kind: "download", chunk: { index: 0 }, resource: { archiveIds: ["main"] } },
    { id: "dl1", kind: "download", chunk: { index: 1 }, resource: { archiveIds: ["main"] } },
    { id: "p0", kind: "parse" },
    { id: "r-css", kind: "resource", resource: { archiveIds: ["css"] } },
    { id: "css0", kind: "css" },
    { id: "r-font", kind: "resource", resource: { archiveIds: ["font"] } },
    { id: "r-js", kind: "resource", resource: { archiveIds: ["js"] } },
    { id: "t0", kind: "timer" },
    { id: "r-img", kind: "resource", resource: { archiveIds: ["img"] } },
    { id: "r-red", kind: "resource", resource: { archiveIds: ["hop", "hop#1"] } },
    { id: "f-dl0", kind: "download", chunk: { index: 0 }, resource: { archiveIds: ["frame"] } },
  ],
  edges: [
    { from: "dl0", to: "p0", how: "inferred" },
    { from: "p0", to: "r-css", how: "observed" },
    { from: "r-css", to: "css0", how: "observed" },
    // a CSS-referenced font: the sheet asked for it (observed), the parse chunk used it (inferred)
    { from: "p0", to: "r-font", how: "inferred" },
    { from: "css0", to: "r-font", how: "observed" },
    { from: "p0", to: "r-js", how: "observed" },
    { from: "t0", to: "r-img", how: "observed" },
    { from: "p0", to: "r-red", how: "observed" },
    { from: "p0", to: "f-dl0", how: "observed" },
  ],
  criticalPath: { totalMs: 200, breakdown: { network: 140, script: 20, parse: 10, css: 10, other: 20 } },
};

describe("siteMetrics on a hand-made page", () => {
  const m = siteMetrics(page, graph);

  it("counts network fetches only: last hops, not cached, not failed, not data: URLs", () => {
    assert.deepEqual(m.resources.map((r) => r.url), [
      "https://www.a.test/", "https://static.a.test/s.css", "https://fonts.cdn.test/f.woff2", "https://static.a.test/app.js",
      "https://img.a.test/x.png", "https://static.a.test/r.png", "https://ads.test/frame.html",
    ]);
    assert.equal(m.resourceCount, 7);
    assert.equal(m.pageBytes, 7050);
    assert.equal(m.meanResourceBytes, 7050 / 7);
  });

  it("classifies MIME types, falling back on the resource type for generic ones", () => {
    assert.deepEqual(m.resources.map((r) => r.mime), ["html", "css", "font", "js", "image", "image", "html"]);
    assert.equal(mimeClass({ response: { mimeType: "text/plain" }, resourceType: "Other" }), "other");
    assert.equal(mimeClass({ response: { mimeType: "application/json" }, resourceType: "Script" }), "other");
  });

  it("counts hosts, iframes (frames seen at any time), the largest domain and CDN hosts", () => {
    assert.equal(m.domains, 5);
    assert.equal(m.iframes, 2);
    assert.deepEqual(m.largestDomain, { host: "fonts.cdn.test", resourceShare: 1 / 7, byteShare: 5000 / 7050 });
    assert.deepEqual(m.cdn, { domainShare: 1 / 5, byteShare: 5000 / 7050 });
  });

  it("tells CSS-initiated fetches from parser ones by the initiator's URL", () => {
    assert.deepEqual(m.resources.map((r) => r.initiator), ["other", "parser", "css", "parser", "script", "parser", "parser"]);
    assert.deepEqual(m.initiatorShares, { parser: 4 / 7, script: 1 / 7, css: 1 / 7, other: 1 / 7 });
  });

  it("takes each resource's parent activity from the graph, trusting observed edges", () => {
    assert.deepEqual(m.resources.map((r) => r.parent), ["none", "parse", "css", "parse", "timer", "parse", "parse"]);
    assert.deepEqual(m.parentShares?.count, { parse: 4 / 7, script: 0, css: 1 / 7, timer: 1 / 7, event: 0, none: 1 / 7 });
    assert.equal(m.parentShares?.bytes.parse, 950 / 7050);
    assert.deepEqual(m.criticalPath, { totalMs: 200, shares: { network: 0.7, script: 0.1, parse: 0.05, css: 0.05, other: 0.1 } });
  });

  it("leaves the graph-based measures out without a graph", () => {
    const alone = siteMetrics(page, null);
    assert.equal(alone.parentShares, null);
    assert.equal(alone.criticalPath, null);
    assert.ok(alone.resources.every((r) => r.parent === null));
    assert.equal(alone.resourceCount, 7);
  });

  it("summarises sites: per-site measures over sites, sizes pooled over resources", () => {
    const small = siteMetrics({ ...page, archive: page.archive.slice(0, 2) }, null);
    const s = summarise([m, small]);
    const series = (id: string, name = "all") => s.measures.find((x) => x.id === id)?.series.find((x) => x.name === name);
    assert.equal(s.sites, 2);
    assert.equal(series("resource-count")?.stats?.median, 4.5);
    assert.equal(series("resource-size")?.stats?.n, 9);
    assert.equal(series("resource-size-by-mime", "font")?.stats?.n, 1);
    assert.equal(series("critical-path", "network")?.stats?.n, 1, "only sites with a graph");
  });

  it("names only measures and series that exist in the thesis values", () => {
    const s = summarise([]);
    for (const t of THESIS) {
      assert.ok(s.measures.find((x) => x.id === t.measure)?.series.some((x) => x.name === t.series), `${t.measure}/${t.series}`);
    }
  });
});

/** Tags balance and every & starts an entity: enough to know a browser or viewer will parse it. */
function assertWellFormed(xml: string): void {
  const stack: string[] = [];
  for (const [, close, name, , selfClose] of xml.matchAll(/<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g)) {
    if (selfClose) continue;
    if (close) assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
    else stack.push(name!);
  }
  assert.deepEqual(stack, [], "unclosed elements");
  const stray = xml.replace(/<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g, "");
  assert.ok(!stray.includes("<") && !stray.includes(">"), "a < or > outside a tag");
  assert.ok(!/&(?!#\d+;|amp;|lt;|gt;|quot;|apos;)/.test(xml), "an unescaped &");
}

describe("cdfSvg", () => {
  const svg = cdfSvg({
    title: "Page size <& friends>",
    xLabel: "page size, bytes",
    logX: true,
    series: [
      { name: "corpus", points: [{ x: 0, p: 0.2 }, { x: 2000, p: 0.5 }, { x: 3e6, p: 1 }] },
      { name: "empty", points: [] },
    ],
    reference: [{ name: "thesis: median ≤ 3 MB", value: 3e6 }],
  });

  it("is a well-formed standalone SVG", () => {
    assert.ok(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""), svg.slice(0, 80));
    assert.ok(svg.trimEnd().endsWith("</svg>"));
    assertWellFormed(svg);
    assert.ok(svg.includes("Page size &#60;&#38; friends&#62;"), "the title is escaped");
  });

  it("draws the series as a step path, the axes' labels and ticks, a legend and the reference", () => {
    assert.match(svg, /<path class="series" data-name="corpus" d="M[^"]+"/);
    assert.ok(svg.includes("page size, bytes (log scale)"));
    assert.ok(svg.includes("cumulative fraction"));
    for (const tick of [">1k<", ">10k<", ">1M<", ">10M<", ">0.4<"]) assert.ok(svg.includes(tick), `tick ${tick}`);
    assert.match(svg, /<g class="legend">.*>corpus</);
    assert.match(svg, /<g class="legend">.*>empty \(no data\)</);
    assert.match(svg, /<line class="reference"[^>]*stroke-dasharray="6 4"/);
    assert.match(svg, /stroke-dasharray="6 4"\/><text[^>]*>thesis: median ≤ 3 MB</);
  });

  it("draws a linear axis from zero with round ticks", () => {
    const lin = cdfSvg({ title: "t", xLabel: "domains", series: [{ name: "s", points: [{ x: 5, p: 1 }] }], reference: [{ name: "r", value: 20 }] });
    assertWellFormed(lin);
    for (const tick of [">0<", ">5<", ">10<", ">20<"]) assert.ok(lin.includes(tick), `tick ${tick}`);
    assert.ok(!lin.includes("log scale"));
  });
});

describe("corpus stats on a profiled fixture site", () => {
  let site: RunningSite;
  let report: StatsReport;
  let archive: ArchiveEntry[];
  let recs: string;
  let out: string;

  before(async () => {
    site = await startFixture();
    const root = tempDir("stats");
    recs = join(root, "recordings");
    out = join(root, "stats");
    const { recording } = await recordPage(site.config.entry, optionsFor(site));
    writeRecording(join(recs, "multi-origin"), recording);
    writeRecording(join(recs, "unfinished"), { ...recording, manifest: { ...recording.manifest, status: "incomplete", reason: "test: never loaded" } });
    mkdirSync(join(recs, "broken"));
    writeFileSync(join(recs, "broken", "manifest.json"), "{ truncated");
    archive = readRecording(join(recs, "multi-origin")).archive;
    report = statsReport([recs], out);
  });
  after(async () => site?.close());

  it("measures the complete recording and lists the others", () => {
    assert.equal(report.summary.sites, 1);
    assert.equal(report.sites[0]?.graph, true, JSON.stringify(report.noGraph));
    assert.deepEqual(report.skipped.map((s) => s.dir).sort(), [join(recs, "broken"), join(recs, "unfinished")]);
    assert.match(report.skipped.find((s) => s.dir.endsWith("unfinished"))!.reason, /incomplete: test: never loaded/);
  });

  it("finds what the fixture is: five host names, one iframe, every network fetch", () => {
    const m = report.sites[0]!.metrics;
    assert.equal(m.domains, 5);
    assert.deepEqual([...new Set(m.resources.map((r) => r.host))].sort(), ["ads.fixture.test", "api.fixture.test", "fonts.fixture.test", "static.fixture.test", "www.fixture.test"]);
    assert.equal(m.iframes, 1);
    const fetched = archive.filter((e) => e.fromCache === null && e.redirectedTo === null && e.failure === null && e.response !== null);
    assert.equal(m.resourceCount, fetched.length);
    assert.equal(m.pageBytes, fetched.reduce((n, e) => n + (e.sizes.bodySize ?? 0), 0));
    assert.ok(m.resources.some((r) => r.mime === "font" && r.initiator === "css"), "the CSS font");
  });

  it("attributes every resource to an activity and splits the critical path", () => {
    const m = report.sites[0]!.metrics;
    assert.ok(m.resources.every((r) => r.parent !== null), "every fetch has a graph node");
    assert.equal(m.resources.filter((r) => r.parent === "none").length, 1, "only the main document has no parent");
    assert.ok((m.parentShares?.count.script ?? 0) > 0 && (m.parentShares?.count.css ?? 0) > 0);
    const shares = Object.values(m.criticalPath?.shares ?? {});
    assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 1) < 1e-6, shares.join(", "));
  });

  it("writes stats.json, stats.md and one SVG per measure", () => {
    const json = JSON.parse(readFileSync(report.files.json, "utf8")) as { summary: { sites: number } };
    assert.equal(json.summary.sites, 1);
    const md = readFileSync(report.files.markdown, "utf8");
    assert.match(md, /\| Domains per page \[Fig 4\.3\(a\)\] \| sites \| 1 \| 5 \| 5 \| 5 \| median ≈ 20 \| median ×0\.25 \|/);
    assert.match(md, /\| Iframes per page \[Fig 4\.4\(b\)\] \| sites \| 1 \| 1 \| 1 \| 1 \| median ≤ 2 \| median ×0\.50 \|/);
    assert.equal(report.files.svgs.length, report.summary.measures.length);
    for (const f of report.files.svgs) {
      assert.ok(existsSync(f), f);
      assertWellFormed(readFileSync(f, "utf8"));
    }
  });
});
