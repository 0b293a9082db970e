/**
 * The accuracy result and analysis formats against their JSON Schemas: what the writers make from TEST
 * INPUT runs validates, every accuracy.json of this machine's sweeps too, and broken files are refused
 * with the file and the JSON pointer of each problem.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "@pagepath/temp-dirs";
import { analyzeExperiment, readAccuracyFile, readAnalysisFile, shapeProblems, type CellKey, type Client, type NetworkConfig, type RunConfiguration, type RunResult } from "@pagepath/results";
import { accuracyResult } from "@pagepath/cli/dist/src/verbs/accuracy-result.js";
import { accuracySample } from "@pagepath/cli/dist/src/verbs/accuracy-report.js";
import { writeAnalysis } from "@pagepath/cli/dist/src/verbs/analyze.js";
import { network, samplePlan, sampleRun } from "./results-fixture.js";

const ACCURACY_DIR = join(import.meta.dirname, "..", "..", "..", "accuracy");
const work = tempDir("accuracy-analysis-schema");

const named = (mbit: number, rtt: number): NetworkConfig => ({ ...network(mbit, rtt), name: `${mbit}mbit-${rtt}ms` });
const H2: Omit<RunConfiguration, "network"> = {
  protocol: "h2", transport: "tcp", serverModel: "out-of-order", priority: "none", chunkSizeBytes: 16384, connectionsPerOrigin: 1,
  emulation: { preloader: true, cpuFactor: 1, waitFor: "load" }, scheduler: null, congestion: "cubic", tailLossProbes: true,
};

/**
 * Two runs per client, site and condition; Chromium's one run of beta at 5mbit-50ms failed, so that
 * cell is missing. alpha has no LCP candidate; beta's LCP is its hero image, except in Chromium's
 * runs at 25mbit-20ms, which paint a heading.
 */
function accuracyRuns(): RunResult[] {
  const plan = samplePlan("accuracy", { networks: [named(25, 20), named(5, 50)], protocols: ["h2"] });
  const clients: [Client, number][] = [["chromium", 1], ["emulated", 1.1], ["simulated", 0.95]];
  return clients.flatMap(([client, factor]) =>
    ["alpha", "beta"].flatMap((site, s) =>
      plan.networks.flatMap((net, n) =>
        [0, 1].map((run) => {
          const cell: CellKey = { site, network: net.name, protocol: "h2", transport: "tcp", serverModel: "out-of-order", priority: "none", run };
          const failed = client === "chromium" && site === "beta" && n === 1;
          const load = failed ? null : factor * (1000 + 300 * s + 500 * n + 40 * run);
          const r = sampleRun({ ...plan, client }, cell, load);
          const paints = { firstContentfulPaintMs: load && load / 3 };
          if (site === "alpha") return { ...r, metrics: { ...r.metrics, ...paints, largestContentfulPaintMs: null, largestContentfulPaintMissing: "TEST INPUT: no candidate", largestContentfulPaintElement: null } };
          const heading = client === "chromium" && n === 0;
          const element = heading ? { type: "text" as const, nodeName: "H1", url: null, size: 9000 } : { type: "image" as const, nodeName: "IMG", url: "https://beta.test/hero.jpg", size: 12000 };
          return { ...r, metrics: { ...r.metrics, ...paints, largestContentfulPaintMs: load && load / 2, largestContentfulPaintMissing: null, largestContentfulPaintElement: element } };
        }),
      ),
    ),
  );
}

function writeAccuracy(name: string, change: (a: any) => void = () => {}): string {
  const a = JSON.parse(JSON.stringify(accuracyResult({ conditions: [{ rateMbit: 25, rttMs: 20 }, { rateMbit: 5, rttMs: 50, morePaths: [{ rateMbit: 1, rttMs: 100 }] }], runs: 2, configurations: [H2] }, accuracyRuns().map(accuracySample))));
  change(a);
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(a, null, 1));
  return file;
}

/** TCP against MPTCP on one path and on two in both orders, so every part of the analysis has values; gamma's run 2 fails. */
function writeAnalysisFile(name: string, change: (a: any) => void = () => {}): string {
  const fast = network(10, 20).paths[0]!;
  const slow = network(5, 20).paths[0]!;
  const networks = [network(1, 20), network(10, 100), { name: "fast-first", paths: [fast, slow] }, { name: "slow-first", paths: [slow, fast] }];
  const plan = samplePlan("schema", { networks, protocols: ["h2"], transports: ["tcp", "mptcp"], connectionsPerOrigin: { h2: 1 } });
  const runs = networks.flatMap((net, n) =>
    (["tcp", "mptcp"] as const).flatMap((transport) =>
      ["alpha", "beta", "gamma"].flatMap((site, s) =>
        [0, 1, 2].map((run) => {
          const load = run === 2 && s === 2 ? null : 500 + 100 * n + 30 * s + 7 * run + (transport === "mptcp" ? 25 * s - 60 : 0);
          return sampleRun(plan, { site, network: net.name, protocol: "h2", transport, serverModel: "out-of-order", priority: "none", run }, load);
        }),
      ),
    ),
  );
  const out = join(work, name);
  writeAnalysis(analyzeExperiment({ plan, runs, warnings: ["TEST INPUT: a warning"] }), out);
  const file = join(out, "analysis.json");
  const a = JSON.parse(readFileSync(file, "utf8"));
  change(a);
  writeFileSync(file, JSON.stringify(a, null, 1));
  return file;
}

/** The reader's error for `file`, which must be refused. */
function refusal(read: (f: string) => unknown, file: string): string {
  try {
    read(file);
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail(`${file} was accepted`);
}

it("every results schema compiles in Ajv's strict mode without a warning", (t) => {
  // First in the file: the schemas compile once per process, and strict mode throws where it would warn.
  const warn = t.mock.method(console, "warn");
  for (const name of ["run-result", "experiment-plan", "accuracy", "accuracy-samples", "analysis"] as const) shapeProblems({}, name);
  assert.equal(warn.mock.callCount(), 0, JSON.stringify(warn.mock.calls.map((c) => c.arguments)));
});

describe("accuracy.json against accuracy.schema.json", () => {
  it("what pagepath accuracy writes from sample runs validates, schemaVersion first, with the simulator's calibration", () => {
    const a = readAccuracyFile(writeAccuracy("written.json"));
    assert.equal(Object.keys(a)[0], "schemaVersion");
    assert.deepEqual(a.summary.groups.map((g) => g.metric), ["load", "dcl", "fcp", "lcp"]);
    assert.equal(a.summary.groups[0]!.missing.length, 1);
    assert.ok(a.simulated && a.simulated.againstReplay.groups.length === 4);
    const lcp = a.summary.groups.find((g) => g.metric === "lcp")!;
    assert.deepEqual(lcp.cells.map((c) => [c.site, c.condition, c.lcpElement?.same]), [["beta", "25mbit-20ms", false]]);
    assert.deepEqual(lcp.overall.lcpElement, { cells: 1, same: 0, medianApePercentSame: null, medianApePercentDifferent: lcp.cells[0]!.apePercent });
  });

  it("a file written before schemaVersion is read as version 1", () => {
    assert.equal(readAccuracyFile(writeAccuracy("old.json", (a) => delete a.schemaVersion)).schemaVersion, 1);
  });

  it("every accuracy.json of this machine's sweeps validates", { skip: !existsSync(ACCURACY_DIR) && "no accuracy/ folder (it is not in git)" }, () => {
    const files = readdirSync(ACCURACY_DIR).map((d) => join(ACCURACY_DIR, d, "accuracy.json")).filter(existsSync);
    for (const f of files) readAccuracyFile(f);
  });

  it("a wrong type deep down, an unknown field and a missing one are reported with the file and their JSON pointers", () => {
    const file = writeAccuracy("broken.json", (a) => {
      a.summary.groups[0].cells[0].chromium.medianMs = "1000";
      a.summary.groups[1].overall.chromiumSpread.mean = 3;
      delete a.conditions[1].morePaths[0].rttMs;
    });
    const lines = refusal(readAccuracyFile, file).split("\n");
    assert.equal(lines[0], `${file}: not a valid pagepath accuracy result:`);
    assert.deepEqual(lines.slice(1).sort(), [
      `${file}: /conditions/1/morePaths/0/rttMs: is missing`,
      `${file}: /summary/groups/0/cells/0/chromium/medianMs: must be number or null, not "1000"`,
      `${file}: /summary/groups/1/overall/chromiumSpread/mean: is not a field of the accuracy result format (misspelt?)`,
    ]);
  });

  it("another schemaVersion is refused for what it is, not for its fields", () => {
    const file = writeAccuracy("v2.json", (a) => Object.assign(a, { schemaVersion: 2, summary: null }));
    assert.equal(refusal(readAccuracyFile, file), `${file}: not a valid pagepath accuracy result:\n${file}: /schemaVersion: 2 is not supported (this pagepath reads schemaVersion 1)`);
  });

  it("stops listing after 50 problems and says how many more there are", () => {
    const file = writeAccuracy("many.json", (a) => (a.conditions = Array.from({ length: 60 }, () => ({ rateMbit: 0, rttMs: 20 }))));
    const lines = refusal(readAccuracyFile, file).split("\n");
    assert.equal(lines.length, 52);
    assert.equal(lines[51], `${file}: ... and 10 more problems`);
  });
});

describe("analysis.json against analysis.schema.json", () => {
  it("what pagepath analyze writes for a sample experiment validates, comparisons, tests and aggregation benefit filled in", () => {
    const a = readAnalysisFile(writeAnalysisFile("written"));
    assert.ok(a.comparisons.length === 3 && a.comparisons[0]!.points.some((p) => p.wilcoxon !== null && p.anova !== null), JSON.stringify(a.comparisons[0]?.points[0]));
    assert.ok(a.aggregationBenefit.results.length > 0, JSON.stringify(a.aggregationBenefit));
    assert.ok(a.rows.some((r) => r.status === "failed"));
  });

  it("a wrong type deep down, an unknown field and a wrong schemaVersion are reported with the file and their JSON pointers", () => {
    const file = writeAnalysisFile("broken", (a) => {
      a.comparisons[0].points[0].wilcoxon.pValue = "0.5";
      a.rows[0].host = "alpha.test";
    });
    const lines = refusal(readAnalysisFile, file).split("\n");
    assert.equal(lines[0], `${file}: not a valid pagepath analysis:`);
    assert.deepEqual(lines.slice(1).sort(), [
      `${file}: /comparisons/0/points/0/wilcoxon/pValue: must be number, not "0.5"`,
      `${file}: /rows/0/host: is not a field of the analysis format (misspelt?)`,
    ]);
    const v2 = writeAnalysisFile("v2", (a) => (a.schemaVersion = 2));
    assert.equal(refusal(readAnalysisFile, v2), `${v2}: not a valid pagepath analysis:\n${v2}: /schemaVersion: 2 is not supported (this pagepath reads schemaVersion 1)`);
  });
});
