import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { planMismatches, readExperiment, validateRunResult, type NetworkConfig, type RunResult } from "@pagepath/results";
import type { GraphRuns, RunningViewer } from "@pagepath/viewer";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";
import { ARTIFACTS, closeViewerSession, openViewerSession, type ViewerBrowser } from "./viewer-browser.js";

const SITE = "fixture-multi-origin";
const GRAPH = `graphs/${SITE}.json`;
const SHIFT_MS = 300;

const PATH = { upMbps: 5, downMbps: 10, rttMs: 20, loss: 0, queue: { discipline: "droptail" as const, packets: 64 } };
const NET: NetworkConfig = { name: "two-paths", paths: [PATH, { ...PATH, rttMs: 100 }] };

/**
 * TEST INPUT, not a replay: run 0 takes every recorded time x 1.5 and leaves out `leftOut`; run 1 is
 * run 0 with `shifted` 300 ms later. Run 1 did not measure its load.
 */
function replays(graph: Graph, sha: string, leftOut: string, shifted: string) {
  const plan = samplePlan("replay", { sites: [{ name: "multi", graph: GRAPH }], networks: [NET], protocols: ["h2"], transports: ["mptcp"], runs: 2, connectionsPerOrigin: { h2: 1 } });
  const origins = [...new Set(graph.nodes.flatMap((n) => (n.resource && n.resource.origin !== "null" ? [new URL(n.resource.origin)] : [])).map((u) => `${u.protocol}//${u.hostname}:${u.port || 443}`))];
  const scaled = (t: number | null) => (t === null ? null : t * 1.5);
  const runs = [0, 1].map((run): RunResult => {
    const r = sampleRun(plan, { site: "multi", network: NET.name, protocol: "h2", transport: "mptcp", serverModel: "out-of-order", priority: "none", run }, 1);
    const moved = (id: string) => (run === 1 && id === shifted ? SHIFT_MS : 0);
    const timings = graph.nodes.filter((n) => n.id !== leftOut).map((n) => ({ nodeId: n.id, start: n.start * 1.5 + moved(n.id), end: n.end * 1.5 + moved(n.id) }));
    const connections = origins.map((origin, i) => ({ id: `c${i}`, origin, protocol: "h2" as const, transport: "mptcp" as const, openedMs: i, closedMs: null, paths: [{ path: 0, bytesUp: 100 * (i + 1), bytesDown: 1000 * (i + 1) }, { path: 1, bytesUp: 10, bytesDown: null }] }));
    const metrics = { domContentLoadedMs: scaled(graph.recorded.domContentLoaded), loadMs: run === 1 ? null : scaled(graph.recorded.load), graphCompleteMs: Math.max(...timings.map((t) => t.end)) };
    return { ...r, site: { ...r.site, graphSha256: sha }, metrics, nodeTimings: timings, connections, paths: [{ path: 0, bytesUp: 5000, bytesDown: 90000 }, { path: 1, bytesUp: 300, bytesDown: null }] };
  });
  return { plan, runs };
}

describe("replayed runs in the timeline", () => {
  let data = "";
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;
  let graph: Graph;
  let leftOut = "";
  let shifted = "";
  let runs: RunResult[] = [];

  before(async () => {
    data = tempDir("viewer-runs");
    const built = await runCli(["corpus", "build", "--data", data, "--only", SITE, "--quiet-ms", "1000"]);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    graph = readGraphFile(join(data, GRAPH));
    leftOut = graph.nodes.find((n) => n.resource)!.id;
    shifted = graph.nodes.at(-1)!.id;
    assert.notEqual(leftOut, shifted);
    const sha = createHash("sha256").update(readFileSync(join(data, GRAPH))).digest("hex");
    const x = replays(graph, sha, leftOut, shifted);
    runs = x.runs;
    for (const r of runs) assert.deepEqual([...validateRunResult(r, "run"), ...planMismatches(x.plan, r)], []);
    const files = writeExperiment(data, x.plan, runs);
    assert.equal(readExperiment(files.plan).runs.length, 2);
    // Runs of another graph must not be listed.
    const other = samplePlan("other");
    writeExperiment(data, other, [sampleRun(other, { site: "alpha", network: other.networks[0]!.name, protocol: "h1", transport: "tcp", serverModel: "out-of-order", priority: "none", run: 0 }, 100)]);
    ({ viewer, chromium } = await openViewerSession(data));
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("lists the runs that replayed a graph, and nothing outside the served directory", async () => {
    const list = (await (await fetch(`${viewer!.url}api/runs?file=${encodeURIComponent(GRAPH)}`)).json()) as GraphRuns;
    assert.deepEqual(list.problems, []);
    assert.deepEqual(list.runs.map((r) => [r.experiment, r.cell.run, r.sameBytes, r.nodeTimings?.length]), [["replay.plan.json", 0, true, graph.nodes.length - 1], ["replay.plan.json", 1, true, graph.nodes.length - 1]]);
    assert.deepEqual(list.runs[1]!.paths, runs[1]!.paths);
    for (const file of ["../../../../etc/passwd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd"]) assert.equal((await fetch(`${viewer!.url}api/runs?file=${file}`)).status, 403, file);
  });

  it("draws a run's bars under the recorded ones, compares two runs, and keeps the choices in a deep link", async () => {
    const { page, errors } = chromium!;
    const list = (await (await fetch(`${viewer!.url}api/runs?file=${encodeURIComponent(GRAPH)}`)).json()) as GraphRuns;
    const [one, two] = list.runs.map((r) => r.key) as [string, string];
    await page.goto(`${viewer!.url}#view=timeline&site=${encodeURIComponent(GRAPH)}&lanes=connection&run=${encodeURIComponent(one)}`, { waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    assert.equal(await page.$eval("#run", (s) => (s as HTMLSelectElement).value), one);
    assert.equal((await page.$$("rect.recorded")).length, graph.nodes.length);
    assert.equal((await page.$$("rect.replayed")).length, graph.nodes.length - 1);
    const missing = await page.$$eval("text.not-in-run", (ts) => ts.map((t) => [t.parentElement!.getAttribute("data-id"), t.textContent]));
    assert.deepEqual(missing, [[leftOut, "not in run A"]]);
    const metrics = await page.$$eval("g.run-metric", (gs) => gs.map((g) => g.getAttribute("data-metric")));
    assert.deepEqual(metrics, [graph.recorded.domContentLoaded, graph.recorded.load].flatMap((t, i) => (t === null ? [] : [["DOMContentLoaded", "load"][i]])));
    const lanes = await page.$$eval("text.lane", (ts) => ts.map((t) => t.textContent ?? ""));
    assert.ok(lanes.some((l) => / run connection #c\d+ \(h2\/mptcp\)$/.test(l)), lanes.join("\n"));
    const paths = await page.$$eval("text.path-row", (ts) => ts.map((t) => t.textContent ?? ""));
    assert.equal(paths.length, 2);
    assert.match(paths[1]!, /^run A path 1: ↑ 300 B ↓ not measured; #c0 ↑ 10 B ↓ not measured/);

    await page.select("#vs", two);
    await page.waitForSelector("g.bar.changed");
    assert.match(page.url(), /[#&]vs=/);
    const changed = () => page.$$eval("g.bar.changed", (gs) => gs.map((g) => g.getAttribute("data-id")));
    assert.deepEqual(await changed(), [shifted]);
    assert.equal((await page.$$("rect.recorded")).length, 0, "two runs are compared with each other, not with the recording");
    assert.equal((await page.$$("rect.replayed")).length, 2 * (graph.nodes.length - 1));
    assert.ok((await page.$$eval(".run-note", (ns) => ns.map((n) => n.textContent))).includes("run B load: not measured"));
    await page.screenshot({ path: join(ARTIFACTS, "timeline-run.png"), fullPage: true });

    await page.reload({ waitUntil: "load" });
    await page.waitForSelector("g.bar.changed");
    assert.deepEqual([await page.$eval("#run", (s) => (s as HTMLSelectElement).value), await page.$eval("#vs", (s) => (s as HTMLSelectElement).value)], [one, two]);
    assert.deepEqual(await changed(), [shifted]);

    await page.$eval("#threshold", (i) => {
      (i as HTMLInputElement).value = String(400);
      i.dispatchEvent(new Event("change"));
    });
    await page.waitForFunction(() => location.hash.includes("threshold=400") && document.querySelector(".timeline-scroll svg[data-drawn]") && !document.querySelector("g.bar.changed"));
    assert.deepEqual(errors, []);
  });
});
