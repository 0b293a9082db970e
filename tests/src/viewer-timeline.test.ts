import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningSite } from "@pagepath/corpus";
import { buildGraph, loadRecording, readGraphFile, type Graph, type GraphNode } from "@pagepath/graph-builder";
import { profileBatch, recordingName } from "@pagepath/profiler";
import type { RunningViewer } from "@pagepath/viewer";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";
import { relayEachHost, type HostRelays } from "./host-relays.js";
import { ARTIFACTS, closeViewerSession, openViewerSession, type ViewerBrowser } from "./viewer-browser.js";

const PAGE = "https://www.fixture.test/index.html";
const GRAPH = "graphs/multi-origin.json";

const fetches = (g: Graph): GraphNode[] => g.nodes.filter((n) => n.resource);
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
});
