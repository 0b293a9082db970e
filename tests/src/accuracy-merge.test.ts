/**
 * samples.json and `accuracy --merge`: sweeps made at different times or on different machines
 * reported as one, each cell compared only between runs of one graph. TEST INPUT samples, no browser.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "@pagepath/temp-dirs";
import { accuracySamplesJson, readAccuracySamplesFile, type AccuracyRunSample, type AccuracySamples, type RunConfiguration } from "@pagepath/results";
import { mergeAccuracySamples } from "@pagepath/cli/dist/src/verbs/accuracy-merge.js";
import { runCli } from "./cli-run.js";

const work = tempDir("accuracy-merge");
const H2: Omit<RunConfiguration, "network"> = {
  protocol: "h2", transport: "tcp", serverModel: "out-of-order", priority: "none", chunkSizeBytes: 16384, connectionsPerOrigin: 1,
  emulation: { preloader: true, cpuFactor: 1, waitFor: "load" }, scheduler: null, congestion: "cubic", tailLossProbes: true,
};
const H3: Omit<RunConfiguration, "network"> = { ...H2, protocol: "h3", transport: "quic", tailLossProbes: null };
const sha = (c: string) => c.repeat(64);

/** Three runs per client of each site at `condition` over `stack`; the emulated browser `factor` times Chromium's load. */
function sweep(sites: string[], condition: { rateMbit: number; rttMs: number }, config: Omit<RunConfiguration, "network">, graph: string, factor: number): AccuracySamples {
  const name = `${condition.rateMbit}mbit-${condition.rttMs}ms`;
  const samples: AccuracyRunSample[] = sites.flatMap((site, s) =>
    (["chromium", "emulated"] as const).flatMap((client) =>
      [0, 1, 2].map((run) => {
        const load = (1000 + 100 * s + 10 * run) * (client === "emulated" ? factor : 1);
        return { site, condition: name, protocol: config.protocol, client, run, graphSha256: sha(graph), metrics: { load, dcl: load / 2, fcp: load / 3, lcp: load / 2.5 } };
      }),
    ),
  );
  const lantern = { engine: "@paulirish/trace_engine@0.0.53", cells: sites.map((site) => ({ site, condition: name, fcpMs: 500, lcpMs: 600, interactiveMs: 1500, error: null })) };
  return { schemaVersion: 1, kind: "pagepath-accuracy-samples", conditions: [condition], runs: 3, configurations: [config], samples, lantern };
}

function write(name: string, doc: AccuracySamples): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "samples.json"), accuracySamplesJson(doc));
  return dir;
}

describe("accuracy samples", () => {
  it("samples.json is valid, one sample a line, and reads back as written", () => {
    const doc = sweep(["a", "b"], { rateMbit: 1, rttMs: 100 }, H2, "a", 1.1);
    const dir = write("round-trip", doc);
    const text = readFileSync(join(dir, "samples.json"), "utf8");
    assert.equal(text.split("\n").filter((l) => l.startsWith('  {"site":')).length, 12 + 2);
    assert.deepEqual(readAccuracySamplesFile(join(dir, "samples.json")), doc);
  });

  it("a bad sample is refused with the file and its JSON pointer", () => {
    const doc = sweep(["a"], { rateMbit: 1, rttMs: 100 }, H2, "a", 1);
    doc.samples[4]!.graphSha256 = "not a hash";
    const dir = write("bad", doc);
    assert.throws(() => readAccuracySamplesFile(join(dir, "samples.json")), (e: Error) => e.message.includes(`${join(dir, "samples.json")}: /samples/4/graphSha256:`));
  });
});

describe("merging sweeps", () => {
  const slow = sweep(["a", "b"], { rateMbit: 1, rttMs: 100 }, H2, "a", 1.1);
  const h3 = sweep(["a", "b"], { rateMbit: 1, rttMs: 100 }, H3, "a", 0.8);
  const otherMachine = sweep(["a", "b"], { rateMbit: 25, rttMs: 20 }, H2, "b", 1.0);

  it("takes every file's runs, conditions and stacks", () => {
    const m = mergeAccuracySamples([{ file: "A", doc: slow }, { file: "B", doc: h3 }, { file: "C", doc: otherMachine }]);
    assert.equal(m.samples.length, 36);
    assert.deepEqual(m.conditions.map((c) => `${c.rateMbit}:${c.rttMs}`), ["1:100", "25:20"]);
    assert.deepEqual(m.configurations.map((c) => c.protocol), ["h2", "h3"]);
    // Lantern's prediction for a site and condition is the first file's.
    assert.equal(m.lantern!.cells.length, 4);
  });

  it("refuses a run found in two files, naming both", () => {
    assert.throws(() => mergeAccuracySamples([{ file: "A", doc: slow }, { file: "B", doc: slow }]), /a at 1mbit-100ms over h2, chromium run 0 is in both A and B/);
  });

  it("refuses a cell whose runs replayed two recordings of the site", () => {
    const emulatedElsewhere = { ...slow, samples: slow.samples.filter((s) => s.client === "emulated").map((s) => ({ ...s, graphSha256: sha("c") })) };
    const chromiumHere = { ...slow, samples: slow.samples.filter((s) => s.client === "chromium") };
    assert.throws(() => mergeAccuracySamples([{ file: "A", doc: chromiumHere }, { file: "B", doc: emulatedElsewhere }]), /a at 1mbit-100ms over h2: A and B replayed different graphs of the site/);
  });

  // Runs that name their recording: Chromium's depend on it alone, the emulated browser's on the graph built from it.
  const recorded = (doc: AccuracySamples, recording: string, graph = "a") => ({ ...doc, samples: doc.samples.map((s) => ({ ...s, graphSha256: sha(graph), recordingSha256: sha(recording) })) });
  const only = (doc: AccuracySamples, client: string) => ({ ...doc, samples: doc.samples.filter((s) => s.client === client) });

  it("keeps Chromium's runs across a graph built anew from their recording, and takes the emulated runs from the later file that remade them", () => {
    const before = recorded(slow, "r", "a");
    const remade = only(recorded(sweep(["a", "b"], { rateMbit: 1, rttMs: 100 }, H2, "a", 1.2), "r", "d"), "emulated");
    const m = mergeAccuracySamples([{ file: "A", doc: before }, { file: "B", doc: remade }]);
    assert.equal(m.samples.length, 12);
    assert.deepEqual([...new Set(m.samples.filter((s) => s.client === "emulated").map((s) => s.graphSha256))], [sha("d")]);
    assert.deepEqual([...new Set(m.samples.filter((s) => s.client === "chromium").map((s) => s.graphSha256))], [sha("a")]);
    // Chromium's runs and the remade emulated ones, kept apart, make the same cells.
    assert.equal(mergeAccuracySamples([{ file: "A", doc: only(before, "chromium") }, { file: "B", doc: remade }]).samples.length, 12);
  });

  it("takes the emulated runs a new model made on the same graph from the later file", () => {
    const before = recorded(slow, "r", "a");
    const newModel = only(recorded(sweep(["a", "b"], { rateMbit: 1, rttMs: 100 }, H2, "a", 1.3), "r", "a"), "emulated");
    const m = mergeAccuracySamples([{ file: "A", doc: before }, { file: "B", doc: newModel }]);
    assert.equal(m.samples.length, 12);
    const emulated = (d: AccuracySamples) => d.samples.filter((s) => s.client === "emulated").map((s) => JSON.stringify(s.metrics)).sort();
    assert.deepEqual(emulated(m), emulated(newModel));
    assert.notDeepEqual(emulated(m), emulated(before));
  });

  it("refuses a remade run of another recording, the same run listed twice, and a cell whose emulated runs replayed two graphs", () => {
    const before = recorded(slow, "r", "a");
    assert.throws(() => mergeAccuracySamples([{ file: "A", doc: before }, { file: "B", doc: only(recorded(slow, "s", "d"), "emulated") }]), /emulated run 0 is in both A and B/);
    assert.throws(() => mergeAccuracySamples([{ file: "A", doc: before }, { file: "B", doc: before }]), /chromium run 0 is in both A and B/);
    const partly = { ...only(recorded(slow, "r", "d"), "emulated") };
    partly.samples = partly.samples.filter((s) => s.run === 0);
    assert.throws(() => mergeAccuracySamples([{ file: "A", doc: before }, { file: "B", doc: partly }]), /a at 1mbit-100ms over h2: B and A replayed different graphs of the site/);
    const otherRecording = only(recorded(slow, "s", "a"), "emulated");
    assert.throws(() => mergeAccuracySamples([{ file: "A", doc: only(before, "chromium") }, { file: "B", doc: otherRecording }]), /a at 1mbit-100ms over h2: A and B loaded different recordings of the site \(archive sha256\)/);
  });

  it("holds Chromium's runs to the graph when the servers ordered responses by it", () => {
    const critical = { ...H2, priority: "critical-path" as const };
    const before = recorded(sweep(["a"], { rateMbit: 1, rttMs: 100 }, critical, "a", 1.1), "r", "a");
    const remade = only(recorded(sweep(["a"], { rateMbit: 1, rttMs: 100 }, critical, "a", 1.1), "r", "d"), "emulated");
    assert.throws(() => mergeAccuracySamples([{ file: "A", doc: only(before, "chromium") }, { file: "B", doc: remade }]), /replayed different graphs of the site/);
  });

  it("refuses Lantern predictions of two engines", () => {
    const newer = { ...h3, lantern: { ...h3.lantern!, engine: "@paulirish/trace_engine@0.0.99" } };
    assert.throws(() => mergeAccuracySamples([{ file: "A", doc: slow }, { file: "B", doc: newer }]), /in A come from @paulirish\/trace_engine@0.0.53, those in B from @paulirish\/trace_engine@0.0.99/);
  });

  it("pagepath accuracy --merge reports the sweeps as one, with Lantern beside, and runs nothing", async () => {
    const dirs = [write("slow", slow), write("h3", h3), write("other", otherMachine)];
    const out = join(work, "merged");
    const r = await runCli(["accuracy", "--merge", dirs.join(","), "--out", out], 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /3 sweeps, 36 runs of 2 sites/);
    const result = JSON.parse(readFileSync(join(out, "accuracy.json"), "utf8"));
    const load = (p: string) => result.summary.groups.find((g: { metric: string; protocol: string }) => g.metric === "load" && g.protocol === p);
    assert.equal(load("h2").cells.length, 4);
    assert.equal(load("h3").cells.length, 2);
    assert.ok(load("h3").cells.every((c: { signedErrorPercent: number }) => Math.abs(c.signedErrorPercent + 20) < 1e-9));
    const lantern = JSON.parse(readFileSync(join(out, "lantern.json"), "utf8"));
    assert.equal(lantern.comparison.find((c: { stack: string; metric: string }) => c.stack === "h2" && c.metric === "load").lantern.cells, 4);
    assert.equal(readAccuracySamplesFile(join(out, "samples.json")).samples.length, 36);
    assert.match(readFileSync(join(out, "accuracy.md"), "utf8"), /pagepath accuracy --merge/);
    const valid = await runCli(["validate", join(out, "samples.json")], 60_000);
    assert.match(valid.stdout, /ok .*accuracy samples, 36 runs, 2 conditions, 2 configurations, 4 Lantern cells/);
  });

  it("pagepath accuracy --merge names a missing file and refuses options that run a sweep", async () => {
    const missing = await runCli(["accuracy", "--merge", join(work, "nowhere.json"), "--out", join(work, "m2")], 60_000);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /--merge: .*nowhere\.json does not exist/);
    const sites = await runCli(["accuracy", "--merge", write("slow2", slow), "--sites", "a", "--out", join(work, "m3")], 60_000);
    assert.equal(sites.code, 2, sites.stderr);
    assert.match(sites.stderr, /--merge reports sweeps already made: --sites has no meaning with it/);
  });
});
