/**
 * The results view in headless Chromium over TEST INPUTS: runs whose load times come from a formula,
 * so the test knows every median and difference the charts must show.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { CellKey, RunResult } from "@pagepath/results";
import type { RunningViewer } from "@pagepath/viewer";
import { tempDir } from "./fixture-profile.js";
import { samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";
import { ARTIFACTS, closeViewerSession, openViewerSession, type ViewerBrowser, waitForFile } from "./viewer-browser.js";

const plan = samplePlan("sweep");
const SITES = plan.sites.map((s) => s.name);
const H1 = "h1/tcp/out-of-order/none";
const H2 = "h2/tcp/out-of-order/none";

/** The formula the test inputs follow: slower at low bandwidth and high RTT; h2 helps later sites more. */
function formulaLoad(c: CellKey): number {
  const path = plan.networks.find((n) => n.name === c.network)!.paths[0]!;
  const i = SITES.indexOf(c.site);
  return 8000 / path.downMbps! + 10 * path.rttMs + 100 * i + 7 * c.run + (c.protocol === "h2" ? -30 * (i + 1) : 0);
}

/** h1 has every cell, one run failed; h2 never ran on 1M-100ms and every run failed on 10M-100ms. */
function testRuns(): RunResult[] {
  const runs: RunResult[] = [];
  for (const protocol of ["h1", "h2"] as const)
    for (const network of plan.networks.map((n) => n.name))
      for (const site of SITES)
        for (let run = 0; run < plan.runs; run++) {
          if (protocol === "h2" && network === "1M-100ms") continue;
          const cell: CellKey = { site, network, protocol, transport: "tcp", serverModel: "out-of-order", priority: "none", run };
          const failed = (protocol === "h2" && network === "10M-100ms") || (protocol === "h1" && network === "10M-20ms" && site === "gamma" && run === 2);
          runs.push(sampleRun(plan, cell, failed ? null : formulaLoad(cell)));
        }
  return runs;
}

const runs = testRuns();
const measured = (config: string) => runs.filter((r) => r.status === "ok" && `${r.configuration.protocol}/tcp/out-of-order/none` === config);

function expectedMedian(config: string, network: string): number | null {
  const v = measured(config).filter((r) => r.configuration.network.name === network).map((r) => r.metrics.loadMs!).sort((a, b) => a - b);
  if (v.length === 0) return null;
  return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
}

function expectedDiffs(network: string | null): number[] {
  const mean = (config: string, site: string, net: string) => {
    const v = measured(config).filter((r) => r.site.name === site && r.configuration.network.name === net).map((r) => r.metrics.loadMs!);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  const nets = network ? [network] : plan.networks.map((n) => n.name);
  return nets.flatMap((net) => SITES.flatMap((site) => {
    const a = mean(H1, site, net);
    const b = mean(H2, site, net);
    return a === null || b === null ? [] : [a - b];
  })).sort((p, q) => p - q);
}

const text = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

describe("viewer results view", () => {
  let data = "";
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;

  before(async () => {
    data = tempDir("viewer-results");
    const dir = join(data, "experiments");
    mkdirSync(dir);
    writeExperiment(dir, plan, runs, JSON.stringify(runs[0]).slice(0, 80));
    const brokenPlan = samplePlan("broken");
    const good = sampleRun(brokenPlan, { site: "alpha", network: "1M-20ms", protocol: "h1", transport: "tcp", serverModel: "out-of-order", priority: "none", run: 0 }, 10);
    writeExperiment(dir, brokenPlan, [good, { ...good, run: 1, seed: 1001, metrics: { ...good.metrics, loadMs: "fast" as unknown as number } }]);
    ({ viewer, chromium } = await openViewerSession(data));
    // So that a reader of the screenshots knows their numbers are not measurements.
    writeFileSync(join(ARTIFACTS, "results-README.txt"), "results-*.png show TEST INPUTS: load times from a formula in tests/src/viewer-results.test.ts, not measurements.\n");
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("serves experiments by API, refusing paths outside the directory and naming what is corrupt", async () => {
    const list = (await (await fetch(`${viewer!.url}api/experiments`)).json()) as { experiments: { ok: boolean; name: string; error?: string; done?: number; warnings?: number }[] };
    const sweep = list.experiments.find((e) => e.name === "sweep");
    assert.deepEqual([sweep?.ok, sweep?.done, sweep?.warnings], [true, runs.length, 1]);
    assert.match(list.experiments.find((e) => e.name === "broken")?.error ?? "", /broken\.runs\.jsonl: line 2: \/metrics\/loadMs: must be number or null, not "fast"/);
    for (const file of ["../../../../etc/passwd.plan.json", "experiments/sweep.runs.jsonl"]) {
      const res = await fetch(`${viewer!.url}api/experiment?file=${encodeURIComponent(file)}`);
      assert.ok(res.status === 400 || res.status === 403, `${file} gave ${res.status}`);
    }
    assert.equal((await fetch(`${viewer!.url}api/experiment?file=experiments/broken.plan.json`)).status, 422);
  });

  it("lists experiments, shows runs, heatmap medians and the CDF of paired differences, and exports them", async () => {
    const { page, errors, downloads } = chromium!;
    await page.goto(`${viewer!.url}#view=results`, { waitUntil: "load" });
    await page.waitForSelector('tr[data-file="experiments/sweep.plan.json"] a.open-experiment');
    assert.match(await page.$eval('tr[data-file="experiments/broken.plan.json"]', (tr) => tr.textContent ?? ""), /broken: cannot be shown: .*line 2: \/metrics\/loadMs/s);
    await page.screenshot({ path: join(ARTIFACTS, "results-list.png") });

    await page.click('tr[data-file="experiments/sweep.plan.json"] a.open-experiment');
    await page.waitForSelector("table.runs tbody tr");
    assert.equal((await page.$$("table.runs tbody tr")).length, runs.length);
    const notMeasured = await page.$$eval("table.runs td.load", (tds) => tds.filter((t) => t.textContent === "not measured").length);
    assert.equal(notMeasured, runs.filter((r) => r.metrics.loadMs === null).length);
    assert.match(await page.$eval("details.warnings", (d) => d.textContent ?? ""), new RegExp(`1 warning.*line ${runs.length + 1}: is incomplete`, "s"));
    await page.screenshot({ path: join(ARTIFACTS, "results-runs.png"), fullPage: true });

    await page.click('a[data-tab="heatmap"]');
    // The tab draws after the click returns: its selector may not be there yet.
    await page.waitForSelector("#heat-config");
    for (const config of [H1, H2]) {
      await page.select("#heat-config", config);
      await page.waitForFunction((c) => document.querySelector("svg.heatmap text")?.textContent?.includes(c.split("/")[0]! + " over"), {}, config);
      const cells = await page.$$eval("svg.heatmap g.cell", (gs) => gs.map((g) => ({ bw: Number(g.getAttribute("data-bandwidth")), rtt: Number(g.getAttribute("data-rtt")), text: g.querySelector("text")!.textContent })));
      assert.equal(cells.length, plan.networks.length);
      for (const c of cells) {
        const net = `${c.bw}M-${c.rtt}ms`;
        const want = expectedMedian(config, net);
        const ran = runs.some((r) => r.configuration.network.name === net && r.configuration.protocol === config.slice(0, 2));
        assert.equal(c.text, want !== null ? text(want) : ran ? "not measured" : "missing", `${config} at ${net}`);
      }
      await page.screenshot({ path: join(ARTIFACTS, `results-heatmap-${config.slice(0, 2)}.png`), fullPage: true });
    }
    await page.click("#export-svg");
    const svg = readFileSync(await waitForFile(downloads, "sweep-heatmap.svg"), "utf8");
    assert.match(svg, /^<svg/);
    assert.ok(svg.includes(`>${text(expectedMedian(H2, "1M-20ms")!)}<`), "the exported heatmap carries the cell values");

    await page.click('a[data-tab="cdf"]');
    await page.waitForSelector("svg.cdf");
    const values = () => page.$$eval("circle.cdf-point", (cs) => cs.map((c) => Number(c.getAttribute("data-value"))));
    assert.deepEqual(await values(), expectedDiffs("1M-20ms"));
    assert.equal((await values()).length, SITES.length, "one point per paired site");
    await page.select("#cdf-net", "*");
    await page.waitForFunction((n) => document.querySelectorAll("circle.cdf-point").length === n, {}, expectedDiffs(null).length);
    assert.deepEqual(await values(), expectedDiffs(null));
    await page.screenshot({ path: join(ARTIFACTS, "results-cdf.png"), fullPage: true });
    await page.click("#export-png");
    const png = readFileSync(await waitForFile(downloads, "sweep-cdf.png"));
    assert.equal(png.subarray(1, 4).toString(), "PNG");

    // The deep link restores the experiment, tab and choices after a reload.
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector("circle.cdf-point");
    assert.deepEqual(await values(), expectedDiffs(null));
    assert.deepEqual(errors, []);
  });
});
