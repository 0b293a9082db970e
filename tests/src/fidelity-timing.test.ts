import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { serveSite } from "@pagepath/corpus";
import { buildGraph, loadRecording } from "@pagepath/graph-builder";
import { readRunResultFile, type RunResult } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { FIDELITY_PAGES, fidelitySiteDir, profileFidelityPages, type FidelityPage } from "./fidelity-fixtures.js";
import { netDown, netUp } from "./net-topology.js";

const PAGES = Object.keys(FIDELITY_PAGES) as FidelityPage[];
const NET = "fid-4";

/**
 * How close the emulated browser must come to Chromium on each step: when each request leaves the
 * client, within 60 ms or 15% of Chromium's time, whichever is larger (Chromium's renderer takes
 * 5-40 ms more than the model to dispatch a request on this machine, and a loaded machine adds to
 * it); the load event within 15%.
 */
const START_TOLERANCE_MS = 60;
const TOLERANCE = 0.15;

/**
 * A page whose load event races a late request in Chromium itself: the web font is requested
 * after the style sheet has been applied and text laid out, within a few ms of load, so Chromium's
 * load lands either before it or after it has arrived (296 against 652 ms in two runs here).
 */
const LOAD_RACES: FidelityPage[] = ["fontCss"];

function firstStarts(run: RunResult): Map<string, number> {
  const starts = new Map<string, number>();
  for (const r of run.requests ?? []) if (!starts.has(r.url) && !r.url.endsWith("/favicon.ico")) starts.set(r.url, r.startMs);
  return starts;
}

/**
 * Each step of each fidelity page (issue 21), timed by the emulated browser and by Chromium over the
 * same emulated link (4 Mbit/s, 40 ms RTT, HTTP/2): the load event, and when each request left the
 * client (for Chromium its network stack's start, after its own request scheduling).
 */
describe("the emulated browser against Chromium on the fidelity pages, step by step", () => {
  const work = tempDir("fidelity-timing");
  const graphFiles = new Map<FidelityPage, string>();
  before(async () => {
    const site = await serveSite(fidelitySiteDir());
    try {
      for (const [page, dir] of await profileFidelityPages(site, join(work, "recordings"), PAGES)) {
        const file = join(work, `${page}.json`);
        writeFileSync(file, JSON.stringify(buildGraph(loadRecording(dir))));
        graphFiles.set(page, file);
      }
    } finally {
      await site.close();
    }
    await netUp(NET, ["--paths", "1", "--rate-mbit", "4", "--delay-ms", "20"]);
  });
  after(() => netDown(NET));

  async function replay(page: FidelityPage, client: string): Promise<RunResult> {
    const out = join(work, `${page}-${client}.json`);
    const r = await runCli(["replay", graphFiles.get(page)!, "--client", client, "--net", NET, "--protocol", "h2", "--wait-for", "load", "--out", out, "--timeout", "60"], 180_000);
    assert.equal(r.code, 0, `${page} ${client}: ${r.stdout}${r.stderr}`);
    const run = readRunResultFile(out);
    assert.equal(run.status, "ok", `${page} ${client}: ${run.error}`);
    return run;
  }

  for (const page of PAGES) {
    it(`${page}: every request within ${START_TOLERANCE_MS} ms or ${TOLERANCE * 100}% of Chromium's${LOAD_RACES.includes(page) ? "" : ", and the load event"}`, async () => {
      const chromium = await replay(page, "chromium");
      const emulated = await replay(page, "emulated");
      const c = firstStarts(chromium);
      const e = firstStarts(emulated);
      const lines = [`load: Chromium ${chromium.metrics.loadMs} ms, emulated ${emulated.metrics.loadMs?.toFixed(1)} ms`];
      const off: string[] = [];
      for (const [url, at] of c) {
        const mine = e.get(url);
        lines.push(`  ${url}: Chromium ${at.toFixed(0)} ms, emulated ${mine?.toFixed(0) ?? "never"}`);
        if (mine === undefined || Math.abs(mine - at) > Math.max(START_TOLERANCE_MS, TOLERANCE * at)) off.push(url);
      }
      console.log(`${page}\n${lines.join("\n")}`);
      assert.deepEqual(off, [], `requests the emulated browser sent too early or too late:\n${lines.join("\n")}`);
      assert.deepEqual([...e.keys()].filter((u) => !c.has(u)), [], "the emulated browser fetched only what Chromium fetched");
      if (LOAD_RACES.includes(page)) return;
      const load = chromium.metrics.loadMs!;
      assert.ok(Math.abs(emulated.metrics.loadMs! - load) <= TOLERANCE * load, lines.join("\n"));
    });
  }
});
