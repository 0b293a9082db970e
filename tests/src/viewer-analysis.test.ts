/**
 * The results view's analysis tab in headless Chromium over TEST INPUTS: load times chosen so that
 * every grid point's sums are round, so the reductions and equal-or-better shares are known by hand.
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { familyKey, type CellKey, type RunResult } from "@pagepath/results";
import type { AnalysisData, ExperimentData, RunningViewer } from "@pagepath/viewer";
import { tempDir } from "./fixture-profile.js";
import { samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";
import { ARTIFACTS, closeViewerSession, openViewerSession, type ViewerBrowser } from "./viewer-browser.js";

const SITES = ["alpha", "beta", "gamma", "delta"];
const plan = samplePlan("thesis", { sites: SITES.map((s) => ({ name: s, graph: `graphs/${s}.json` })) });
const FILE = "experiments/thesis.plan.json";
/** h1's mean at each network is BASE + 100 × site index, so the four sites sum to a round number. */
const BASE: Record<string, number> = { "1M-20ms": 2350, "1M-100ms": 4850, "10M-20ms": 350, "10M-100ms": 1100 };
/** h2's load minus h1's per site. */
const H2_DELTA: Record<string, number[]> = {
  "1M-20ms": [-500, -500, -500, -500],
  "1M-100ms": [-1200, 0, 15, 185],
  "10M-20ms": [30, 30, -10, -10],
  "10M-100ms": [100, 100, 100, 200],
};
const selector = (protocol: string) => `protocol=${protocol},transport=tcp,serverModel=out-of-order,priority=none,family=1 path`;
const label = (protocol: string) => `${protocol}/tcp · out-of-order · none · 1 path`;

/**
 * Σ h1 per network: 10000, 20000, 2000, 5000; Σ(h1 − h2): 2000, 1000, −40, −500. So h2 against h1:
 * reductions 20%, 5%, −2%, −10%; within 20 ms: 4, 3, 2 and 0 of the 4 sites. h1 against h2 (Σ h2:
 * 8000, 19000, 2040, 5500): −25%, −5.3%, 2.0%, 9.1%; within 20 ms: 0, 3, 4 and 4 sites.
 */
const H2_VS_H1 = { reduction: { "1/20": "20.0%", "1/100": "5.0%", "10/20": "-2.0%", "10/100": "-10.0%" }, equalOrBetter: { "1/20": "100.0%", "1/100": "75.0%", "10/20": "50.0%", "10/100": "0.0%" } };
const H1_VS_H2 = { reduction: { "1/20": "-25.0%", "1/100": "-5.3%", "10/20": "2.0%", "10/100": "9.1%" }, equalOrBetter: { "1/20": "0.0%", "1/100": "75.0%", "10/20": "100.0%", "10/100": "100.0%" } };

function thesisRuns(): RunResult[] {
  const runs: RunResult[] = [];
  for (const protocol of ["h1", "h2"] as const)
    for (const net of plan.networks)
      SITES.forEach((site, i) => {
        for (let run = 0; run < plan.runs; run++) {
          const cell: CellKey = { site, network: net.name, protocol, transport: "tcp", serverModel: "out-of-order", priority: "none", run };
          // Runs spread ±10 ms around the site's mean.
          runs.push(sampleRun(plan, cell, BASE[net.name]! + 100 * i + 10 * (run - 1) + (protocol === "h2" ? H2_DELTA[net.name]![i]! : 0)));
        }
      });
  return runs;
}

const near = (a: number | null | undefined, b: number, what: string) => assert.ok(a != null && Math.abs(a - b) < 1e-9, `${what}: ${a}, expected ${b}`);

describe("viewer analysis view", () => {
  let data = "";
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;
  const api = async (query: string) => {
    const res = await fetch(`${viewer!.url}api/analysis?${query}`);
    return { status: res.status, body: (await res.json()) as AnalysisData & { error?: string } };
  };

  before(async () => {
    data = tempDir("viewer-analysis");
    mkdirSync(join(data, "experiments"));
    writeExperiment(join(data, "experiments"), plan, thesisRuns());
    ({ viewer, chromium } = await openViewerSession(data));
    writeFileSync(join(ARTIFACTS, "analysis-README.txt"), "analysis-*.png show TEST INPUTS: load times chosen in tests/src/viewer-analysis.test.ts, not measurements.\n");
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("serves the analysis without its run rows, with the thesis's measures per grid point", async () => {
    const { status, body } = await api(`file=${FILE}`);
    assert.equal(status, 200, body.error);
    assert.ok(!("rows" in body), "the per-run rows are left out");
    assert.deepEqual(body.comparisons.map((c) => [c.baseline, c.candidate]), [[label("h1"), label("h2")]]);
    const at = (a: AnalysisData, bw: number, rtt: number) => a.comparisons[0]!.points.find((p) => p.point.bandwidthMbps === bw && p.point.rttMs === rtt)!;
    near(at(body, 1, 20).reductionPercent, 20, "reduction at 1M/20ms");
    near(at(body, 10, 100).reductionPercent, -10, "reduction at 10M/100ms");
    near(at(body, 1, 100).equalOrBetterPercent, 75, "equal or better at 1M/100ms");
    near(at(body, 10, 20).equalOrBetterPercent, 50, "equal or better at 10M/20ms");
    assert.equal(at(body, 10, 20).row, "10 Mbit/s");
    // h2 is 30 ms slower for two sites there: within a 30 ms margin, not within 20.
    const wider = await api(`file=${FILE}&margin=30`);
    near(at(wider.body, 10, 20).equalOrBetterPercent, 100, "equal or better at 10M/20ms within 30 ms");
    const swapped = await api(`file=${FILE}&baseline=${encodeURIComponent(selector("h2"))}`);
    near(at(swapped.body, 1, 20).reductionPercent, -25, "h1 against h2 at 1M/20ms");

    const bad = await api(`file=${FILE}&baseline=protocol%3Dh9`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.error ?? "", /--baseline "protocol=h9" matches no configuration\n.*h1\/tcp · out-of-order · none · 1 path/s);
    assert.equal((await api(`file=${FILE}&metric=speed`)).status, 400);
    assert.equal((await api(`file=${FILE}&margin=-5`)).status, 400);
    assert.equal((await api(`file=${encodeURIComponent("../../../../etc/passwd.plan.json")}`)).status, 403);
    assert.equal((await api("file=experiments/thesis.runs.jsonl")).status, 400);
    assert.equal((await api("file=experiments/none.plan.json")).status, 404);

    // The family of each network now comes from the server, as the analysis groups them.
    const x = (await (await fetch(`${viewer!.url}api/experiment?file=${FILE}`)).json()) as ExperimentData;
    assert.deepEqual(x.places[1], { network: "1M-100ms", familyKey: familyKey(plan.networks[1]!), family: "1 path", point: { bandwidthMbps: 1, trace: null, rttMs: 100 }, row: "1 Mbit/s" });
    assert.deepEqual(x.analysisChoices.configurations.map((c) => c.selector), [selector("h1"), selector("h2")]);
  });

  it("shows both heatmaps, the table, the CDF and the EAB note; a new baseline redraws them; a bad one shows the error", async () => {
    const { page, errors } = chromium!;
    const cells = (kind: string) =>
      page.$$eval(`svg.heatmap.${kind} g.cell`, (gs) => Object.fromEntries(gs.map((g) => [`${g.getAttribute("data-bandwidth")}/${g.getAttribute("data-rtt")}`, g.querySelector("text")!.textContent])));
    const shown = async () => ({ reduction: await cells("reduction"), equalOrBetter: await cells("equal-or-better") });
    const cellText = (kind: string, key: string, text: string) =>
      page.waitForFunction((k, c, t) => document.querySelector(`svg.heatmap.${k} g.cell[data-bandwidth="${c.split("/")[0]}"][data-rtt="${c.split("/")[1]}"] text`)?.textContent === t, {}, kind, key, text);

    await page.goto(`${viewer!.url}#view=results&experiment=${encodeURIComponent(FILE)}`, { waitUntil: "load" });
    await page.waitForSelector('a[data-tab="analysis"]');
    await page.click('a[data-tab="analysis"]');
    await page.waitForSelector("svg.heatmap.equal-or-better g.cell");
    assert.deepEqual(await shown(), H2_VS_H1);
    // Diverging: blue where the candidate is faster, red where it is slower.
    const fill = (key: string) => page.$eval(`svg.heatmap.reduction g.cell[data-bandwidth="${key.split("/")[0]}"][data-rtt="${key.split("/")[1]}"] rect`, (r) => getComputedStyle(r).fill);
    const [r1, , b1] = (await fill("1/20")).match(/\d+/g)!.map(Number);
    const [r2, , b2] = (await fill("10/100")).match(/\d+/g)!.map(Number);
    assert.ok(b1! > r1! && r2! > b2!, `faster is blue, slower red: ${await fill("1/20")}, ${await fill("10/100")}`);

    const row = await page.$$eval("table.analysis.points tbody tr", (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    // 1 Mbit/s, 20 ms: 4 identical differences of 500 ms: W+ = 10, z = (10 − 5 − ½) / 2.5 = 1.8, p = 0.072.
    assert.deepEqual(row[0]!.slice(0, 9), ["1 Mbit/s", "20", "4", "2500.0", "2000.0", "20.0%", "500.0", "100.0%", "0.072"]);
    // Over the 16 pairs: Σ h1 37000, Σ(h1 − h2) 2460, 9 within 20 ms.
    assert.deepEqual(row.at(-1)!.slice(0, 8), ["every grid point", "", "16", "2312.5", "2158.8", "6.6%", "153.8", "56.3%"]);
    const cdf = await page.$$eval("svg.cdf circle.cdf-point", (cs) => cs.map((c) => [c.getAttribute("data-network"), Number(c.getAttribute("data-value"))] as const));
    assert.equal(cdf.length, 16, "a marker per site and grid point");
    assert.deepEqual(cdf.filter(([n]) => n === "1 Mbit/s, 100 ms").map(([, v]) => v), [1200, 0, -15, -185].sort((a, b) => a - b));
    assert.match(await page.$eval("section.benefit", (s) => s.textContent ?? ""), /Not applicable: no configuration uses a multipath transport/);
    await page.screenshot({ path: join(ARTIFACTS, "analysis.png"), fullPage: true });

    await page.$eval("#analysis-margin", (input) => {
      (input as HTMLInputElement).value = "30";
      input.dispatchEvent(new Event("change"));
    });
    await cellText("equal-or-better", "10/20", "100.0%");
    assert.deepEqual(await cells("equal-or-better"), { ...H2_VS_H1.equalOrBetter, "10/20": "100.0%" }, "only the 30 ms slower sites come within the margin");

    // Swapped, no site's difference lies between 20 and 30 ms: the wider margin changes nothing.
    await page.select("#analysis-baseline", selector("h2"));
    await cellText("reduction", "1/20", H1_VS_H2.reduction["1/20"]);
    assert.deepEqual(await shown(), H1_VS_H2);
    assert.equal(await page.$eval("section.comparison h3", (h) => h.textContent), `${label("h1")} vs ${label("h2")} (baseline)`);
    assert.deepEqual(errors, []);

    // The candidate may not be the baseline itself: the analysis's message replaces the charts.
    await page.select("#analysis-candidate", selector("h2"));
    await page.waitForSelector(".analysis-error");
    assert.match(await page.$eval(".analysis-error", (e) => e.textContent ?? ""), /--candidate ".*protocol=h2.*" matches only baseline configurations/);
    assert.equal(await page.$("svg.heatmap"), null);
    await page.goto(`${viewer!.url}#view=results&experiment=${encodeURIComponent(FILE)}&tab=analysis&baseline=protocol%3Dh9`, { waitUntil: "load" });
    await page.waitForSelector(".analysis-error");
    assert.match(await page.$eval(".analysis-error", (e) => e.textContent ?? ""), /--baseline "protocol=h9" matches no configuration/);
    assert.equal(await page.$eval("#analysis-baseline", (s) => (s as HTMLSelectElement).value), "protocol=h9", "the bad selector stays chosen");
    // Each refused analysis is a 400 the browser logs; nothing else may go wrong.
    assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  });
});
