import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fixtureDir, quantile, serveSite, siteProfileOptions } from "@pagepath/corpus";
import { buildGraph, loadRecording } from "@pagepath/graph-builder";
import { recordPage, writeRecording } from "@pagepath/profiler";
import { tempDir } from "@pagepath/temp-dirs";
import { writeLargeSite } from "./large-site.js";

const median = (xs: number[]) => quantile(xs, 0.5);

export interface BuildBenchRow {
  /** The URL the recording is a load of (its files are gone once measured). */
  recording: string;
  resources: number;
  traceEvents: number;
  parseMs: number;
  buildMs: number;
  ratio: number;
}

/**
 * Graph building time against the time to read and JSON-parse the same recording files, both
 * measured here on the same recordings: the multi-origin fixture and a generated page of over a
 * thousand resources, each profiled for real first.
 */
export async function benchGraphBuild(reps: number, log: (l: string) => void): Promise<BuildBenchRow[]> {
  // Gone on Ctrl-C too (tempDir); removed here as soon as the rows are measured.
  const root = tempDir("bench-build");
  try {
    const recordings: Array<{ url: string; dir: string }> = [];
    const sites = [fixtureDir("multi-origin"), writeLargeSite(join(root, "large-site"), 1200, 30, 10)];
    for (const [i, dir] of sites.entries()) {
      const site = await serveSite(dir);
      try {
        log(`  profiling ${site.config.entry}`);
        const { recording } = await recordPage(site.config.entry, siteProfileOptions(site, { quietMs: 500, capMs: 120_000 }));
        if (recording.manifest.status !== "complete") throw new Error(`${site.config.entry}: ${recording.manifest.reason}`);
        const out = join(root, `rec-${i}`);
        writeRecording(out, recording);
        recordings.push({ url: site.config.entry, dir: out });
      } finally {
        await site.close();
      }
    }
    const rows: BuildBenchRow[] = [];
    for (const { url, dir } of recordings) {
      const parse: number[] = [];
      const build: number[] = [];
      let resources = 0;
      let traceEvents = 0;
      for (let r = 0; r < reps; r++) {
        let t = performance.now();
        for (const f of ["manifest.json", "trace.json", "archive.json"]) {
          const parsed = JSON.parse(readFileSync(join(dir, f), "utf8"));
          if (f === "trace.json") traceEvents = parsed.traceEvents.length;
        }
        for (const line of readFileSync(join(dir, "events.jsonl"), "utf8").split("\n")) if (line) JSON.parse(line);
        parse.push(performance.now() - t);
        t = performance.now();
        const rec = loadRecording(dir);
        const g = buildGraph(rec);
        build.push(performance.now() - t);
        resources = g.nodes.filter((n) => n.kind === "resource").length;
      }
      rows.push({ recording: url, resources, traceEvents, parseMs: median(parse), buildMs: median(build), ratio: median(build) / median(parse) });
      log(`  ${url}: ${resources} resources built in ${median(build).toFixed(1)} ms`);
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
