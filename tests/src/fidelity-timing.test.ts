import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cpuTimes, stolenShare } from "@pagepath/bench";
import { buildGraph, loadRecording } from "@pagepath/graph-builder";
import { readRunResultFile, type RunResult } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { FIDELITY_PAGES, recordFidelityPages, type FidelityPage } from "./fidelity-fixtures.js";
import { netDown, netUp } from "./net-topology.js";

const PAGES = Object.keys(FIDELITY_PAGES) as FidelityPage[];
/** Pages whose point is a paint: their first and largest contentful paints are held to the same tolerance. */
const PAINTED: FidelityPage[] = ["fontDisplay", "paintBeforeScript", "fontAuto", "fontBlock", "readyReveal"];
const NET = "fid-4";

/**
 * How close the emulated browser must come to Chromium on each step: each request leaves the client,
 * and the load event and paints happen, within 60 ms or 15% of Chromium's time, whichever is larger,
 * counted from the request Chromium started just before it (for the first request, from the run's
 * start). A step is timed from the one before it, not from the run's start, because a busy machine
 * delays every hop between Chromium's processes and not the model's recorded costs, and those delays
 * add up along a page: in CI every Chromium step of a page has come 40-80 ms later than on a quiet
 * machine (import-before-script.html's first style sheet at 223 ms against 160 quiet, its third at 388
 * against 307), each step's own length within 30 ms of quiet; one busy loop beside the test does the
 * same here. The model takes each request's way to the network from a loopback recording, and a loaded
 * machine lengthens Chromium's: its network service started the 37 images of many-images.html
 * 1.5-2.5 ms apart here, 0.4 ms apart in the recording. The load event's step lacks some 30 ms of
 * Chromium's first connection costs on short pages.
 */
const START_TOLERANCE_MS = 60;
const TOLERANCE = 0.15;

/** Chromium runs per page: the reference is their median, as `pagepath accuracy` takes it. */
const CHROMIUM_RUNS = 3;

function firstStarts(run: RunResult): Map<string, number> {
  const starts = new Map<string, number>();
  for (const r of run.requests ?? []) if (!starts.has(r.url) && !r.url.endsWith("/favicon.ico")) starts.set(r.url, r.startMs);
  return starts;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** Per URL, the median of its start over the runs that fetched it. */
function medianStarts(runs: RunResult[]): Map<string, number> {
  const all = new Map<string, number[]>();
  for (const run of runs) for (const [url, at] of firstStarts(run)) all.set(url, [...(all.get(url) ?? []), at]);
  return new Map([...all].map(([url, ats]) => [url, median(ats)]));
}

/**
 * Each step of each fidelity page (issue 21), timed by the emulated browser and by Chromium over the
 * same emulated link (4 Mbit/s, 40 ms RTT, HTTP/2): the load event, and when each request left the
 * client (for Chromium its network stack's start, after its own request scheduling).
 */
describe("the emulated browser against Chromium on the fidelity pages, step by step", () => {
  const work = tempDir("fidelity-timing");
  const graphFiles = new Map<FidelityPage, string>();
  /** Records `pages` in Chromium and builds their graphs: the costs the emulated browser replays. */
  async function record(pages: FidelityPage[], into: string): Promise<void> {
    for (const [page, dir] of await recordFidelityPages(join(work, into), pages)) {
      const file = join(work, `${page}.json`);
      writeFileSync(file, JSON.stringify(buildGraph(loadRecording(dir))));
      graphFiles.set(page, file);
    }
  }

  before(async () => {
    await record(PAGES, "recordings");
    await netUp(NET, ["--paths", "1", "--rate-mbit", "4", "--delay-ms", "20"]);
  });
  after(() => netDown(NET));

  async function replay(page: FidelityPage, client: string, nth = 0): Promise<RunResult> {
    const out = join(work, `${page}-${client}-${nth}.json`);
    const r = await runCli(["replay", graphFiles.get(page)!, "--client", client, "--net", NET, "--protocol", "h2", "--wait-for", "load", "--out", out, "--timeout", "60"], 180_000);
    assert.equal(r.code, 0, `${page} ${client}: ${r.stdout}${r.stderr}`);
    const run = readRunResultFile(out);
    assert.equal(run.status, "ok", `${page} ${client}: ${run.error}`);
    return run;
  }

  /**
   * One comparison of `page`: Chromium's runs, then the emulated browser's. A machine busy with
   * something else slows Chromium's renderer and not the model's recorded costs (a CI run once had
   * every module request of five pages 60-100 ms late in Chromium alone), so a page that misses is
   * recorded again and compared once more, and fails only if it misses again; both attempts are printed.
   */
  async function compare(page: FidelityPage, attempt: number): Promise<void> {
    const chromium: RunResult[] = [];
    for (let run = 0; run < CHROMIUM_RUNS; run++) chromium.push(await replay(page, "chromium", run + attempt * CHROMIUM_RUNS));
    const emulated = await replay(page, "emulated", attempt);
    const c = medianStarts(chromium);
    const e = firstStarts(emulated);
    const load = median(chromium.map((r) => r.metrics.loadMs!));
    const lines = [`load: Chromium ${load.toFixed(1)} ms (median of ${chromium.map((r) => r.metrics.loadMs!.toFixed(0)).join(", ")}), emulated ${emulated.metrics.loadMs?.toFixed(1)} ms`];
    const off: string[] = [];
    // The step before each of Chromium's: the request it started last before it, as [Chromium's time, the model's].
    const before = (at: number): [number, number] => {
      let best: [number, number] = [0, 0];
      for (const [url, theirs] of c) {
        const mine = e.get(url);
        if (theirs < at && mine !== undefined && theirs >= best[0]) best = [theirs, mine];
      }
      return best;
    };
    // Each client's step to `theirs` and `mine`, and whether they differ by more than the tolerance.
    const step = (theirs: number, mine: number) => {
      const [fromTheirs, fromMine] = before(theirs);
      const [ours, model] = [theirs - fromTheirs, mine - fromMine];
      return { ours, model, misses: Math.abs(model - ours) > Math.max(START_TOLERANCE_MS, TOLERANCE * ours) };
    };
    const missesStep = (theirs: number, mine: number): boolean => step(theirs, mine).misses;
    for (const [url, at] of c) {
      const mine = e.get(url);
      // What Chromium asked for after its load event the model leaves out as after load
      // (graph.md, Completion markers); a run ends at load, so it is not compared.
      if (at > load && mine === undefined) {
        lines.push(`  ${url}: Chromium ${at.toFixed(0)} ms (median), after its load: not compared`);
        continue;
      }
      const s = mine === undefined ? undefined : step(at, mine);
      const shown = s ? `; step ${s.ours.toFixed(0)} against ${s.model.toFixed(0)}` : "";
      lines.push(`  ${url}: Chromium ${at.toFixed(0)} ms (median), emulated ${mine?.toFixed(0) ?? "never"}${shown}`);
      if (!s || s.misses) off.push(url);
    }
    console.log(`${page}${attempt ? " (second attempt)" : ""}\n${lines.join("\n")}`);
    assert.deepEqual(off, [], `requests the emulated browser sent too early or too late:\n${lines.join("\n")}`);
    assert.deepEqual([...e.keys()].filter((u) => !c.has(u)), [], "the emulated browser fetched only what Chromium fetched");
    assert.ok(!missesStep(load, emulated.metrics.loadMs!), `load event too early or too late, counted from the request before it:\n${lines.join("\n")}`);
    if (PAINTED.includes(page)) {
      for (const [name, metric] of [["first", "firstContentfulPaintMs"], ["largest", "largestContentfulPaintMs"]] as const) {
        const theirs = median(chromium.map((r) => r.metrics[metric]!));
        const mine = emulated.metrics[metric]!;
        assert.ok(!missesStep(theirs, mine), `${name} contentful paint: Chromium ${theirs.toFixed(1)} ms (median), emulated ${mine?.toFixed(1)} ms, counted from the request before it`);
      }
    }
  }

  /**
   * What else the machine was doing: a miss in CI has come with every Chromium step 40-80 ms later
   * than on a quiet machine, the model's recorded costs unchanged, so a miss prints it.
   */
  const started = cpuTimes();
  function machineLoad(): string {
    const stolen = stolenShare(started, cpuTimes());
    const steal = stolen === null ? "" : `; ${(stolen * 100).toFixed(1)}% of the CPU stolen by the hypervisor since the tests began`;
    const busiest = execFileSync("ps", ["-eo", "pcpu,etime,args", "--sort=-pcpu"], { encoding: "utf8" }).split("\n").slice(0, 6);
    return `load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}${steal}; busiest processes:\n${busiest.map((l) => l.slice(0, 160)).join("\n")}`;
  }

  for (const page of PAGES) {
    it(`${page}: each request, the load event and paints within ${START_TOLERANCE_MS} ms or ${TOLERANCE * 100}% of Chromium's, counted from the request before`, async () => {
      try {
        await compare(page, 0);
      } catch (first) {
        if (!(first instanceof assert.AssertionError)) throw first;
        console.log(`${page}: the first comparison missed, recording the page again and comparing again:\n${first.message}\n${machineLoad()}`);
        // The model replays the costs of a recording made minutes earlier; a machine slower since
        // then slows Chromium's steps and not those (a CI run had Chromium's CSS-to-font step at
        // 220-233 ms against 177 in the run before, on the same code). Compared again, the model's
        // costs are the machine's of now, as Chromium's are.
        await record([page], `recordings-again-${page}`);
        try {
          await compare(page, 1);
        } catch (second) {
          if (second instanceof assert.AssertionError) second.message += `\n${machineLoad()}`;
          throw second;
        }
      }
    });
  }
});
