/**
 * A multipath run's scheduler choices in the viewer: each resource's bar split by the path that carried
 * its response bytes, a legend naming the paths and the scheduler, and the index's byte shares.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cellSeed, planMismatches, validateRunResult, type RunResult } from "@pagepath/results";
import type { RunningViewer } from "@pagepath/viewer";
import { tempDir } from "./fixture-profile.js";
import { samplePlan, writeExperiment } from "./results-fixture.js";
import { TWO_FRAMES_GRAPH, twoPathRun } from "./two-path-run.js";
import { ARTIFACTS, closeViewerSession, openViewerSession, type ViewerBrowser } from "./viewer-browser.js";

const GRAPH = "graphs/two-frames.json";
const RUN = "runs/ecf-two-paths.json";
const ONE_PATH = "runs/quic-one-path.json";

/** TEST INPUT: the two-path run as if over single-path QUIC on the fast path alone, every byte on path 0. */
function onePathRun(graph: string): RunResult {
  const r = twoPathRun(graph);
  const c = r.configuration;
  return {
    ...r,
    configuration: { ...c, transport: "quic", scheduler: null, network: { name: "10M-20ms", paths: [c.network.paths[0]!] } },
    requests: r.requests!.map((q) => ({ ...q, paths: [{ ...q.paths![0]!, bytes: q.paths!.reduce((sum, p) => sum + p.bytes, 0), packets: null }] })),
    connections: r.connections.map((k) => ({ ...k, transport: "quic" as const, paths: [k.paths[0]!] })),
    paths: [r.paths[0]!],
  };
}

describe("a multipath run's paths in the viewer", () => {
  let data = "";
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;

  before(async () => {
    data = tempDir("viewer-run-paths");
    mkdirSync(join(data, "graphs"));
    mkdirSync(join(data, "runs"));
    copyFileSync(TWO_FRAMES_GRAPH, join(data, GRAPH));
    const run = twoPathRun(`../${GRAPH}`);
    assert.deepEqual(validateRunResult(run, RUN), []);
    writeFileSync(join(data, RUN), JSON.stringify(run, null, 1));
    const single = onePathRun(`../${GRAPH}`);
    assert.deepEqual(validateRunResult(single, ONE_PATH), []);
    writeFileSync(join(data, ONE_PATH), JSON.stringify(single, null, 1));
    // The same run as the one run of an experiment, for the results view's table of runs.
    const plan = samplePlan("paths", { sites: [{ name: "two-frames", graph: GRAPH }], networks: [run.configuration.network], protocols: ["h3"], transports: ["mpquic"], runs: 1, connectionsPerOrigin: { h3: 1 }, scheduler: { mpquic: { name: "ecf", options: { beta: "1" } } } });
    const swept = { ...twoPathRun(GRAPH), experiment: plan.name, seed: cellSeed(plan, 0) };
    assert.deepEqual([...validateRunResult(swept, "swept"), ...planMismatches(plan, swept)], []);
    writeExperiment(data, plan, [swept]);
    ({ viewer, chromium } = await openViewerSession(data));
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("splits each run bar by the path that carried its bytes, in one colour per path, and names the paths and the scheduler", async () => {
    const { page, errors } = chromium!;
    await page.goto(`${viewer!.url}#view=timeline&site=${encodeURIComponent(GRAPH)}&run=${encodeURIComponent(RUN)}`, { waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    const segments = await page.$$eval("rect.path-segment", (rs) =>
      rs.map((r) => ({ node: r.closest("g.bar")!.getAttribute("data-id"), path: Number(r.getAttribute("data-path")), bytes: Number(r.getAttribute("data-bytes")), fill: r.getAttribute("fill"), x: Number(r.getAttribute("x")), width: Number(r.getAttribute("width")), title: r.querySelector("title")?.textContent ?? "" })),
    );
    assert.deepEqual(
      segments.map((s) => [s.node, s.path, s.bytes]),
      [["d0", 0, 1448], ["css1", 0, 2048], ["js1", 0, 22848], ["js1", 1, 7300], ["xhr1", 0, 348], ["fd0", 0, 648]],
    );
    const fills = new Map(segments.map((s) => [s.path, s.fill]));
    assert.ok(segments.every((s) => s.fill === fills.get(s.path)), "a path has one colour");
    assert.notEqual(fills.get(0), fills.get(1));
    // app.js's bar: the two segments fill it side by side, as wide as each path's part of its bytes.
    const [js0, js1] = segments.filter((s) => s.node === "js1") as [(typeof segments)[0], (typeof segments)[0]];
    const bar = await page.$eval('g.bar[data-id="js1"] rect.replayed', (r) => ({ x: Number(r.getAttribute("x")), width: Number(r.getAttribute("width")) }));
    assert.ok(Math.abs(js0.x - bar.x) < 1e-6 && Math.abs(js1.x - (js0.x + js0.width)) < 1e-6);
    assert.ok(Math.abs(js0.width + js1.width - bar.width) < 1e-6);
    assert.ok(Math.abs(js1.width / bar.width - 7300 / 30148) < 1e-6, `${js1.width} of ${bar.width}`);
    assert.equal(js1.title, "path 1: 7.1 KB in 7 packets (24% of this response's bytes sent), sent 81.5 ms to 83.0 ms");

    const legend = await page.$eval('g.path-legend[data-run="run A"]', (g) => ({
      run: g.querySelector("text.path-legend-run")!.textContent,
      keys: [...g.querySelectorAll("g.path-key")].map((k) => [Number(k.getAttribute("data-path")), k.querySelector("rect")!.getAttribute("fill"), k.querySelector("text")!.textContent]),
    }));
    assert.equal(legend.run, "run A: scheduler ecf beta=1; load 195.4 ms; its bars are split by the path that carried the response bytes");
    assert.deepEqual(legend.keys, [
      [0, fills.get(0), "path 0: 10 Mbit/s down, 10 up, RTT 20 ms · 82% of the bytes down (37.6 KB), 79% of the response bytes sent (26.7 KB)"],
      [1, fills.get(1), "path 1: 2 Mbit/s down, 2 up, RTT 100 ms · 18% of the bytes down (8.2 KB), 21% of the response bytes sent (7.1 KB)"],
    ]);
    await page.screenshot({ path: join(ARTIFACTS, "timeline-run-paths.png"), fullPage: true });

    await page.goto(`${viewer!.url}#view=index`, { waitUntil: "load" });
    await page.waitForSelector("table.replayed-runs tbody tr");
    const cells = await page.$eval(`table.replayed-runs tr[data-file="${RUN}"]`, (tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
    // This run predates the paint metrics: its FCP and LCP cells say nothing was measured.
    assert.deepEqual(cells.slice(8, 13), ["195.4 ms", "–", "–", "path 0 82%, path 1 18%", "ecf beta=1"]);

    await page.goto(`${viewer!.url}#view=results`, { waitUntil: "load" });
    await page.waitForSelector('tr[data-file="paths.plan.json"] a.open-experiment');
    await page.click('tr[data-file="paths.plan.json"] a.open-experiment');
    await page.waitForSelector("table.runs tbody tr");
    const row = await page.$eval("table.runs tbody tr", (tr) => ["dcl", "load", "fcp", "lcp", "share", "scheduler"].map((k) => tr.querySelector(`td.${k}`)!.textContent));
    assert.deepEqual(row, ["149.8", "195.4", "not measured", "not measured", "path 0 82%, path 1 18%", "ecf beta=1"]);
    assert.deepEqual(errors, []);
  });

  it("leaves a single-path run's bars in the run's colour, with no path legend", async () => {
    const { page, errors } = chromium!;
    await page.goto(`${viewer!.url}#view=timeline&site=${encodeURIComponent(GRAPH)}&run=${encodeURIComponent(ONE_PATH)}`, { waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    assert.ok((await page.$$("rect.replayed")).length > 10);
    assert.equal((await page.$$("rect.path-segment")).length, 0);
    assert.equal((await page.$$("g.path-legend")).length, 0);
    assert.deepEqual(errors, []);
  });
});
