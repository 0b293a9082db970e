import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningSite } from "@pagepath/corpus";
import { buildGraph, loadRecording, readGraphFile, type Graph, type GraphNode } from "@pagepath/graph-builder";
import { profileBatch, readRecording, recordingName, type Recording } from "@pagepath/profiler";
import type { RunningViewer } from "@pagepath/viewer";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";
import { relayEachHost, type HostRelays } from "./host-relays.js";
import { ARTIFACTS, closeViewerSession, openViewerSession, type ViewerBrowser } from "./viewer-browser.js";

const PAGE = "https://www.fixture.test/index.html";
const GRAPH = "graphs/multi-origin.json";

const fetches = (g: Graph): GraphNode[] => g.nodes.filter((n) => n.resource);
/** A copy of the graph whose four markers fall within a few ms: their labels must be staggered. */
const CLOSE_MARKERS = "graphs/close-markers.json";
const host = (n: GraphNode): string => new URL(n.resource!.origin).host;

/** The labels the timeline must show: one lane per origin and connection, as the graph has them. */
function expectedLanes(g: Graph): string[] {
  const labels = fetches(g).map((n) => {
    const c = n.resource!.connection;
    return c ? `${host(n)} #${c.id} (${n.resource!.protocol})` : `${host(n)} (no connection)`;
  });
  return [...new Set(labels)].sort();
}

describe("the timeline's lanes by connection", () => {
  let data = "";
  let site: RunningSite | undefined;
  let relays: HostRelays | undefined;
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;
  let graph: Graph;
  let recording: Omit<Recording, "bodies">;

  before(async () => {
    data = tempDir("viewer-timeline");
    site = await startFixture();
    relays = await relayEachHost(site);
    const recordings = join(data, "recordings");
    const [result] = await profileBatch([PAGE], recordings, { ...optionsFor(site, {}, relays.rules), concurrency: 1, resume: false });
    assert.equal(result?.status, "complete", result?.reason ?? "");
    mkdirSync(join(data, "graphs"));
    writeFileSync(join(data, GRAPH), JSON.stringify(buildGraph(loadRecording(join(recordings, recordingName(PAGE))))));
    graph = readGraphFile(join(data, GRAPH));
    recording = readRecording(join(recordings, recordingName(PAGE)));
    const t = graph.recorded.domContentLoaded ?? 100;
    const close = { ...graph, recorded: { ...graph.recorded, domContentLoaded: t, load: t + 2, firstContentfulPaint: t + 4, largestContentfulPaint: t + 6 } };
    writeFileSync(join(data, CLOSE_MARKERS), JSON.stringify(close));
    ({ viewer, chromium } = await openViewerSession(data));
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    await relays?.close();
    await site?.close();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("records one HTTP/2 connection per origin, to that origin's server, and none for cache hits", () => {
    const idsByOrigin = new Map<string, Set<number>>();
    for (const n of fetches(graph)) {
      const c = n.resource!.connection;
      if (n.resource!.fromCache) assert.equal(c, null, `${n.id} came from the ${n.resource!.fromCache} cache`);
      if (!c || n.resource!.protocol !== "h2") continue;
      assert.equal(c.remoteAddress, relays!.address.get(host(n)), n.id);
      idsByOrigin.set(n.resource!.origin, (idsByOrigin.get(n.resource!.origin) ?? new Set()).add(c.id));
    }
    assert.ok(fetches(graph).some((n) => n.resource!.fromCache), "the fixture repeats a cached image");
    assert.equal(idsByOrigin.size, 5, [...idsByOrigin.keys()].join(", "));
    for (const [origin, ids] of idsByOrigin) assert.equal(ids.size, 1, `${origin}'s fetches came over connections ${[...ids].join(", ")}`);
    const ids = [...idsByOrigin.values()].map((s) => [...s][0]);
    assert.equal(new Set(ids).size, ids.length, `origins share a connection: ${ids.join(", ")}`);
  });

  it("shows one lane per origin and connection, keeps the choice in the URL, restores it from a deep link, and also lays out by frame", async () => {
    const { page, errors } = chromium!;
    const laneLabels = () => page.$$eval("text.lane", (ts) => ts.map((t) => t.textContent ?? ""));
    await page.goto(`${viewer!.url}#view=timeline&site=${encodeURIComponent(GRAPH)}`, { waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    assert.equal(await page.$eval("#lanes", (s) => (s as HTMLSelectElement).value), "origin");

    await page.select("#lanes", "connection");
    await page.waitForFunction(() => [...document.querySelectorAll("text.lane")].some((t) => / #\d+ /.test(t.textContent ?? "")));
    assert.match(page.url(), /[#&]lanes=connection(&|$)/);
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    assert.equal(await page.$eval("#lanes", (s) => (s as HTMLSelectElement).value), "connection");

    const labels = await laneLabels();
    const network = labels.filter((l) => !l.startsWith("main thread: "));
    assert.deepEqual([...network].sort(), expectedLanes(graph));
    assert.deepEqual(labels.slice(network.length), labels.filter((l) => l.startsWith("main thread: ")), "main-thread lanes come below the network lanes");
    assert.equal((await page.$$("g.bar")).length, graph.nodes.length);
    await page.screenshot({ path: join(ARTIFACTS, "timeline-connections.png"), fullPage: true });

    await page.select("#lanes", "frame");
    await page.waitForFunction(() => [...document.querySelectorAll("text.lane")].some((t) => t.textContent?.startsWith("network: frame ")));
    const byFrame = (await laneLabels()).filter((l) => !l.startsWith("main thread: "));
    const frameUrls = new Set(fetches(graph).map((n) => graph.frames.find((f) => f.id === n.frameId)!.url));
    assert.deepEqual(byFrame.sort(), [...frameUrls].map((u) => `network: frame ${u}`).sort());
    assert.deepEqual(errors, []);
  });

  it("gives every network fetch its recorded ResourceTiming as phases on the graph's clock, laid end to end", () => {
    const t0 = recording.manifest.lifecycle.navigationStartMonotonic!;
    const byId = new Map(recording.archive.map((e) => [e.id, e]));
    let checked = 0;
    for (const n of fetches(graph).filter((n) => n.kind === "resource" && n.resource!.fromCache === null && n.resource!.status !== null)) {
      const p = n.resource!.phases;
      const e = byId.get(n.resource!.archiveIds.at(-1)!)!;
      const t = e.response!.timing!;
      assert.ok(p, `${n.id} (${n.resource!.url}) has no phases`);
      const at = (rel: number) => (t.requestTime + rel / 1000 - t0) * 1000;
      // Chromium stamps some marks out of order (a response's first byte before the request's last);
      // the builder moves such a mark later, to where the phase before it ended, and nowhere else.
      const exact = (a: number, b: number) => Math.abs(a - b) < 0.005;
      const near = (got: number | undefined, want: number, clampedTo: number | undefined, what: string) =>
        assert.ok(got !== undefined && (exact(got, want) || (got > want && clampedTo !== undefined && exact(got, clampedTo))), `${n.id} ${what}: ${got} in the graph, ${want} in the recording: ${JSON.stringify(p)}`);
      const beforeSend = [p.queued, p.dns, p.connect, p.ssl].filter((s) => s !== null).at(-1)?.end;
      near(p.wait?.end, at(t.receiveHeadersStart >= 0 ? t.receiveHeadersStart : t.receiveHeadersEnd), p.wait?.start, "first byte");
      near(p.send?.start, at(t.sendStart), beforeSend, "send");
      near(p.download?.end, n.end, undefined, "last byte");
      if (t.sslStart >= 0) near(p.ssl?.end, at(t.sslEnd), p.ssl?.start, "TLS done");
      if (t.connectStart < 0) assert.equal(p.connect, null, `${n.id}: a reused connection has no connect phase`);
      let previous = n.start;
      for (const s of Object.values(p).filter((s) => s !== null)) {
        assert.ok(s.start >= previous - 0.001 && s.end >= s.start, `${n.id}: ${JSON.stringify(p)}`);
        previous = s.end;
      }
      checked++;
    }
    assert.ok(checked >= 10, `only ${checked} network fetches`);
    assert.ok(fetches(graph).some((n) => n.resource!.phases?.ssl), "some fetch opened a TLS connection");
  });

  it("splits each fetch's bar into its phases in DevTools' colours, with a legend of phases and resource types", async () => {
    const { page, errors } = chromium!;
    await page.goto(`${viewer!.url}#view=timeline&site=${encodeURIComponent(GRAPH)}`, { waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    const legend = await page.$$eval("g.phase-legend-key", (gs) => gs.map((g) => [g.getAttribute("data-phase"), g.querySelector("rect")!.getAttribute("fill")]));
    assert.deepEqual(legend, [["queued", "#c4c4c4"], ["dns", "#009688"], ["connect", "#ff9800"], ["ssl", "#9c27b0"], ["send", "#90a4ae"], ["wait", "#00c853"], ["download", "#03a9f4"]]);
    const types = await page.$$eval("g.type-legend-key", (gs) => gs.map((g) => g.getAttribute("data-type")));
    assert.deepEqual(types, ["document", "stylesheet", "script", "image", "font", "xhr/fetch", "other"]);
    const colour = new Map(legend as [string, string][]);
    const drawn = await page.$$eval("g.bar", (gs) =>
      gs.map((g) => ({
        id: g.getAttribute("data-id")!,
        stripe: g.querySelector("rect.type-stripe")?.getAttribute("data-type") ?? null,
        phases: [...g.querySelectorAll("rect.phase")].map((r) => ({ name: r.getAttribute("data-phase")!, fill: r.getAttribute("fill"), x: Number(r.getAttribute("x")), width: Number(r.getAttribute("width")) })),
      })),
    );
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    for (const row of drawn) {
      const n = byId.get(row.id)!;
      assert.equal(row.stripe !== null, !!n.resource, `${row.id}: a type stripe on fetches only`);
      if (n.kind === "resource") assert.equal(row.stripe, { Script: "script", Stylesheet: "stylesheet", Image: "image", Font: "font", XHR: "xhr/fetch", Fetch: "xhr/fetch", Document: "document" }[n.resource!.resourceType] ?? "other", row.id);
      for (const [i, ph] of row.phases.entries()) {
        assert.ok(n.resource?.phases?.[ph.name as "wait"], `${row.id}: ${ph.name} drawn, but the graph has no such phase`);
        assert.equal(ph.fill, colour.get(ph.name));
        if (i > 0) assert.ok(ph.x >= row.phases[i - 1]!.x + row.phases[i - 1]!.width - 0.01, `${row.id}: ${ph.name} overlaps the phase before it`);
      }
    }
    const names = new Set(drawn.flatMap((r) => r.phases.map((p) => p.name)));
    // A phase of 2 ms is 2 px at this page's scale: too wide to leave out.
    const long = (name: "connect" | "ssl" | "wait" | "download") => fetches(graph).some((n) => { const s = n.resource!.phases?.[name]; return !!s && s.end - s.start >= 2; });
    for (const name of ["connect", "ssl", "wait", "download"] as const) if (long(name)) assert.ok(names.has(name), `no ${name} phase drawn: ${[...names].join(", ")}`);
    assert.ok(long("wait") && names.has("wait"), "some fetch waited 2 ms for its first byte");
    await page.screenshot({ path: join(ARTIFACTS, "timeline-phases.png"), fullPage: true });
    assert.deepEqual(errors, []);
  });

  it("shows a fetch's request, sizes and phase durations on hover", async () => {
    const { page, errors } = chromium!;
    await page.goto(`${viewer!.url}#view=timeline&site=${encodeURIComponent(GRAPH)}`, { waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    const n = fetches(graph).find((f) => f.kind === "resource" && f.resource!.phases?.wait && f.resource!.phases.ssl)!;
    const box = (await page.$(`g.bar[data-id="${n.id}"] rect.recorded`))!;
    // The headers come from the recording a moment after the drawing: hover again until they are in.
    let text = "";
    for (let tries = 0; tries < 50 && !text.includes("request headers:"); tries++) {
      await page.mouse.move(0, 0);
      await box.hover();
      await page.waitForFunction(() => !document.querySelector<HTMLElement>("#tooltip")!.hidden);
      text = await page.$eval("#tooltip", (t) => t.textContent ?? "");
      if (!text.includes("request headers:")) await new Promise((ok) => setTimeout(ok, 100));
    }
    const r = n.resource!;
    const archived = recording.archive.find((e) => e.id === r.archiveIds.at(-1))!;
    const [headerName, headerValue] = Object.entries(archived.response!.headers).find(([, v]) => v.length < 100)!;
    const len = (s: { start: number; end: number } | null) => `${(s!.end - s!.start).toFixed(1)} ms`;
    for (const want of [
      r.url,
      `${r.method} ${r.status} ${r.protocol}`,
      `priority: ${r.priority}`,
      `initiator: ${r.initiatorType}`,
      "encoded (on the wire)",
      "decoded",
      `TLS: ${len(r.phases!.ssl)}`,
      `waiting (TTFB): ${len(r.phases!.wait)}`,
      `content download: ${len(r.phases!.download)}`,
      "request headers:",
      "response headers:",
      `  ${headerName}: ${headerValue}`,
    ]) {
      assert.ok(text.includes(want), `the hover text lacks ${JSON.stringify(want)}:\n${text}`);
    }
    assert.deepEqual(errors, []);
  });

  it("labels DOMContentLoaded, load, FCP and LCP without any two labels overlapping, staggering labels of close markers", async () => {
    const { page, errors } = chromium!;
    const labelBoxes = () => page.$$eval("g.marker text", (ts) => ts.map((t) => ({ name: t.textContent!, box: t.getBoundingClientRect().toJSON() as DOMRect })));
    const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const file of [GRAPH, CLOSE_MARKERS]) {
      await page.goto(`${viewer!.url}#view=timeline&site=${encodeURIComponent(file)}`, { waitUntil: "load" });
      // Only the hash changes between the two files, so the first file's drawing is still up for a while.
      await page.waitForSelector(`.timeline-scroll svg[data-drawn][data-site="${file}"]`);
      const labels = await labelBoxes();
      if (file === CLOSE_MARKERS) assert.deepEqual(labels.map((l) => l.name), ["DOMContentLoaded", "load", "FCP", "LCP"]);
      for (const [i, a] of labels.entries()) for (const b of labels.slice(i + 1)) assert.ok(!overlaps(a.box, b.box), `${file}: ${a.name} ${JSON.stringify(a.box)} overlaps ${b.name} ${JSON.stringify(b.box)}`);
      // Nor may they reach the legend of phases below them.
      const legendTop = await page.$eval("g.phase-legend", (g) => g.getBoundingClientRect().top);
      for (const l of labels) assert.ok(l.box.bottom <= legendTop + 0.5, `${file}: ${l.name}'s label reaches the phase legend`);
    }
    await page.screenshot({ path: join(ARTIFACTS, "timeline-close-markers.png"), fullPage: true });
    assert.deepEqual(errors, []);
  });
});
