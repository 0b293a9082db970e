/**
 * What `pagepath replay` suggests after a run, as a user follows it: the run results it wrote are
 * listed by `pagepath view` of their folder, and each opens the timeline of the graph it replayed
 * (outside that folder, in corpus-data/graphs) with the run's timings under the recorded ones.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { readRunResultFile, type RunResult } from "@pagepath/results";
import type { GraphRuns, RunningViewer, SiteIndex } from "@pagepath/viewer";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { ARTIFACTS, closeViewerSession, openViewerSession, type ViewerBrowser } from "./viewer-browser.js";

const SITE = "fixture-multi-origin";
const GRAPH = `corpus-data/graphs/${SITE}.json`;

describe("pagepath view of pagepath replay's run results", { skip: process.getuid?.() !== 0 ? "needs root (pagepath replay)" : false }, () => {
  let work = "";
  let served = "";
  let runFile = "";
  let run: RunResult;
  let graph: Graph;
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;
  const api = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(viewer!.url + path);
    return { status: res.status, body: (await res.json()) as T };
  };

  before(async () => {
    work = tempDir("viewer-replay-runs");
    const built = await runCli(["corpus", "build", "--data", join(work, "corpus-data"), "--only", SITE, "--quiet-ms", "1000"], 5 * 60_000);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    graph = readGraphFile(join(work, GRAPH));
    // As the README runs it: from the folder holding corpus-data, results to the default runs/.
    const replayed = await runCli(["replay", GRAPH, "--client", "emulated"], 5 * 60_000, {}, [], work);
    assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
    runFile = join(work, /^run result: (\S+)$/m.exec(replayed.stdout)![1]!);
    run = readRunResultFile(runFile);
    const hint = /^ {2}in the viewer: (?:\.\/)?pagepath view (\S+)$/m.exec(replayed.stdout);
    assert.ok(hint, `replay says how to look at the run in the viewer:\n${replayed.stdout}`);
    served = join(work, hint[1]!);
    assert.equal(relative(work, served), "runs");
    // TEST INPUT: a run naming a graph outside the folder whose bytes are not the ones it replayed.
    mkdirSync(join(work, "other"));
    writeFileSync(join(work, "other", "changed.json"), readFileSync(join(work, GRAPH), "utf8") + "\n");
    writeFileSync(join(served, "stale.json"), JSON.stringify({ ...run, site: { ...run.site, graph: "../other/changed.json" } }));
    copyFileSync(join(work, GRAPH), join(work, "other", "copy.json"));
    ({ viewer, chromium } = await openViewerSession(served));
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("the index lists each run result with the graph it replayed, and says which graph cannot be opened", async () => {
    const { body } = await api<SiteIndex>("api/sites");
    assert.deepEqual(body.sites, []);
    const rows = body.runs.map((r) => (r.ok ? [r.run.file, r.run.graph, r.run.graphProblem, r.run.status, r.run.client] : [r.file, r.error]));
    assert.deepEqual(rows, [
      [relative(served, runFile), `../${GRAPH}`, null, "ok", "emulated"],
      ["stale.json", "../other/changed.json", "outside the served directory, and not the bytes this run replayed (rebuilt since?)", "ok", "emulated"],
    ]);
  });

  it("serves the graph a run replayed, outside the folder, only while its bytes are the ones replayed", async () => {
    const g = await api<Graph>(`api/graph?file=${encodeURIComponent(`../${GRAPH}`)}`);
    assert.equal(g.status, 200);
    assert.equal(g.body.nodes.length, graph.nodes.length);
    const runs = await api<GraphRuns>(`api/runs?file=${encodeURIComponent(`../${GRAPH}`)}`);
    // stale.json names another path, but the bytes it replayed are these: it matches, as a moved graph's runs do.
    const rows = runs.body.runs.map((r) => [r.key, r.experiment, r.runFile, r.sameBytes, r.nodeTimings?.length]);
    assert.deepEqual(rows, [relative(served, runFile), "stale.json"].map((f) => [f, null, f, true, run.nodeTimings!.length]));
    for (const other of ["../other/changed.json", "../other/copy.json", `../corpus-data/recordings/${SITE}/manifest.json`, "../../../../etc/passwd"]) {
      assert.equal((await api(`api/graph?file=${encodeURIComponent(other)}`)).status, 403, other);
      assert.equal((await api(`api/layout?file=${encodeURIComponent(other)}`)).status, 403, other);
    }
    assert.equal((await fetch(`${viewer!.url}files/..%2F${encodeURIComponent(GRAPH)}`)).status, 403, "/files/ serves nothing outside the folder");
  });

  it("opens a run from the index on its graph's timeline, with its bars under the recorded ones", async () => {
    const { page, errors } = chromium!;
    await page.goto(viewer!.url, { waitUntil: "load" });
    await page.waitForSelector("table.replayed-runs tbody tr");
    await page.screenshot({ path: join(ARTIFACTS, "index-replay-runs.png") });
    const stale = await page.$eval('table.replayed-runs tr[data-file="stale.json"]', (tr) => [tr.querySelector("a.open-run") === null, tr.textContent ?? ""]);
    assert.deepEqual(stale, [true, stale[1]]);
    assert.match(stale[1] as string, /not the bytes this run replayed/);
    await page.click(`table.replayed-runs tr[data-file="${relative(served, runFile)}"] a.open-run`);
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    assert.equal(await page.$eval("#run", (s) => (s as HTMLSelectElement).value), relative(served, runFile));
    const timed = new Set(run.nodeTimings!.map((t) => t.nodeId));
    assert.equal((await page.$$("rect.recorded")).length, graph.nodes.length);
    assert.equal((await page.$$("rect.replayed")).length, graph.nodes.filter((n) => timed.has(n.id)).length);
    assert.match(await page.$eval("#site-title", (e) => e.textContent ?? ""), /fixture\.test/);
    // The run's bars are split into the phases its requests recorded, as the recorded bars are.
    const phased = new Map((run.requests ?? []).flatMap((q) => (q.nodeId && q.phases ? [[q.nodeId, q.phases] as const] : [])));
    assert.ok(phased.size > 0, "the emulated browser recorded no phases");
    const drawn = await page.$$eval('g.phases[data-run="run A"]', (gs) => gs.map((g) => [g.closest("g.bar")!.getAttribute("data-id")!, [...g.querySelectorAll("rect.phase")].map((r) => r.getAttribute("data-phase")!)] as const));
    assert.ok(drawn.some(([, names]) => names.includes("wait")), JSON.stringify(drawn));
    for (const [id, names] of drawn) for (const name of names) assert.ok(phased.get(id)?.[name as "wait"], `${id}: run A's ${name} drawn, but the run recorded none`);
    const [id] = drawn.find(([, names]) => names.includes("wait"))!;
    await (await page.$(`g.bar[data-id="${id}"] rect.replayed`))!.hover();
    await page.waitForFunction(() => !document.querySelector<HTMLElement>("#tooltip")!.hidden);
    const wait = phased.get(id)!.wait!;
    assert.match(await page.$eval("#tooltip", (t) => t.textContent ?? ""), new RegExp(`run A phases:[^]*waiting \\(TTFB\\): ${(wait.end - wait.start).toFixed(1)} ms`));
    await page.screenshot({ path: join(ARTIFACTS, "timeline-replay-run.png"), fullPage: true });
    assert.deepEqual(errors, []);
  });
});
