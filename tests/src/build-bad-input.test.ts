import assert from "node:assert/strict";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BUILDER_TRACE, buildGraph, loadRecording, readGraphFile, validateGraph } from "@pagepath/graph-builder";
import { recordPage, writeRecording } from "@pagepath/profiler";
import type { RunningSite } from "@pagepath/corpus";
import fc from "fast-check";
import { runCli } from "./cli-run.js";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";
import { changed, type Json } from "./json-mutation.js";

describe("building graphs from damaged, incomplete and trace-less recordings", () => {
  let site: RunningSite;
  let root: string;
  let good: string;

  before(async () => {
    site = await startFixture();
    root = tempDir("build-bad");
    good = join(root, "good");
    writeRecording(good, (await recordPage(site.config.entry, optionsFor(site))).recording);
    const hang = (await recordPage("https://www.fixture.test/hang.html", optionsFor(site, { stop: { quietMs: 200, capMs: 3000 } }))).recording;
    writeRecording(join(root, "incomplete"), hang);
  });
  after(async () => site?.close());

  it("a truncated archive and a corrupt event log are named, and the other recordings are still built", async () => {
    cpSync(good, join(root, "truncated"), { recursive: true });
    const archive = readFileSync(join(good, "archive.json"), "utf8");
    writeFileSync(join(root, "truncated", "archive.json"), archive.slice(0, 1000));
    cpSync(good, join(root, "corrupt"), { recursive: true });
    writeFileSync(join(root, "corrupt", "events.jsonl"), "{not json\n");
    const out = join(root, "graphs");
    const r = await runCli(["build", join(root, "truncated"), join(root, "corrupt"), good, join(root, "incomplete"), "-o", out]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /built 1 of 4 graph\(s\)/);
    assert.match(r.stdout, new RegExp(`FAILED  ${root}/truncated/archive.json: not valid JSON .*truncated or corrupt`));
    assert.match(r.stdout, new RegExp(`FAILED  ${root}/corrupt/events.jsonl:1: not valid JSON`));
    assert.match(r.stdout, new RegExp(`FAILED  ${root}/incomplete: the recording is incomplete \\(the load event did not fire.*--allow-incomplete`));
    const g = readGraphFile(join(out, "good.json"));
    assert.equal(g.mode, "full");
  });

  it("an event log or trace changed at one place anywhere builds, or is refused naming the file; never a slip", () => {
    const fuzzed = join(root, "fuzzed");
    cpSync(good, fuzzed, { recursive: true });
    const slip = /Cannot read|Cannot convert|is not a function|is not iterable|TypeError|RangeError|undefined|NaN/;
    const events = readFileSync(join(good, "events.jsonl"), "utf8").split("\n").filter(Boolean);
    const trace = JSON.parse(readFileSync(join(good, "trace.json"), "utf8")) as { traceEvents: Json[] };
    // The entries the builder reads: most of a trace is other threads' work, which it skips.
    const read = trace.traceEvents.flatMap((e, i) => (BUILDER_TRACE.names.has((e as { name?: string }).name ?? "") ? [i] : []));
    assert.ok(read.length > 50, `${read.length} trace entries the builder reads`);
    const builtOrRefused = (file: string) => {
      try {
        buildGraph(loadRecording(fuzzed));
      } catch (e) {
        const message = (e as Error).message;
        assert.ok(message.includes(join(fuzzed, file)), `not naming ${file}: ${message}`);
        assert.doesNotMatch(message, slip, `a slip: ${message}`);
      }
    };
    // One line (an event of the log, an entry of the trace) changed at one place, or replaced.
    const change = fc.tuple(fc.nat(), fc.nat(), fc.option(fc.jsonValue() as fc.Arbitrary<Json>, { nil: undefined }));
    fc.assert(
      fc.property(change, ([line, pick, value]) => {
        const i = line % events.length;
        const lines = events.map((l, j) => (j === i ? JSON.stringify(changed(JSON.parse(l) as Json, pick, value)) : l));
        writeFileSync(join(fuzzed, "events.jsonl"), lines.join("\n") + "\n");
        builtOrRefused("events.jsonl");
      }),
      { numRuns: 150, seed: 24 },
    );
    writeFileSync(join(fuzzed, "events.jsonl"), readFileSync(join(good, "events.jsonl")));
    fc.assert(
      fc.property(change, ([line, pick, value]) => {
        const traceEvents = [...trace.traceEvents];
        const i = read[line % read.length]!;
        traceEvents[i] = changed(traceEvents[i]!, pick, value);
        writeFileSync(join(fuzzed, "trace.json"), JSON.stringify({ ...trace, traceEvents }));
        builtOrRefused("trace.json");
      }),
      { numRuns: 150, seed: 24 },
    );
  });

  it("an incomplete recording builds when allowed, with the reason as a warning", async () => {
    const out = join(root, "graphs-incomplete");
    const r = await runCli(["build", join(root, "incomplete"), "--allow-incomplete", "-o", out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const g = readGraphFile(join(out, "incomplete.json"));
    assert.match(g.warnings[0]!, /the recording is incomplete: the load event did not fire/);
    assert.equal(g.source.status, "incomplete");
  });

  it("without a trace the builder falls back to a network-only graph and says so", async () => {
    const noTrace = join(root, "no-trace");
    cpSync(good, noTrace, { recursive: true });
    rmSync(join(noTrace, "trace.json"));
    const manifest = JSON.parse(readFileSync(join(noTrace, "manifest.json"), "utf8"));
    writeFileSync(join(noTrace, "manifest.json"), JSON.stringify({ ...manifest, files: { ...manifest.files, trace: false } }));
    const g = buildGraph(loadRecording(noTrace));
    assert.equal(g.mode, "network-only");
    assert.match(g.warnings.join("\n"), /no trace: built a network-only graph/);
    assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), "no-trace"), []);
    const full = buildGraph(loadRecording(good));
    const urls = (x: typeof g) => new Set(x.nodes.filter((n) => n.kind === "resource").map((n) => n.resource!.url));
    assert.deepEqual(urls(g), urls(full), "the same resources either way");
    // Structure from initiators survives: the timer's image still hangs off app.js's evaluation.
    const timerImg = g.nodes.find((n) => n.resource?.url.endsWith("/img/timer.png"))!;
    const parent = g.nodes.find((n) => n.id === g.edges.find((e) => e.to === timerImg.id)!.from)!;
    assert.equal(parent.kind, "script");
    assert.match(parent.script!.url, /app\.js$/);
    const r = await runCli(["build", noTrace, "-o", join(root, "g2")]);
    assert.match(r.stdout, /network-only: no trace/);
  });

  it("leaves out a rendering of the main frame from before the navigation started, as it belongs to the page it replaced", () => {
    const early = join(root, "early-render");
    cpSync(good, early, { recursive: true });
    const file = JSON.parse(readFileSync(join(early, "trace.json"), "utf8")) as { traceEvents: Array<{ name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: Record<string, any> }> };
    const trace = file.traceEvents;
    const manifest = JSON.parse(readFileSync(join(early, "manifest.json"), "utf8"));
    const main = trace.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")!;
    const frame = trace.find((e) => e.name === "Paint" && e.pid === main.pid && typeof e.args?.data?.frame === "string")!.args!.data.frame as string;
    // 17 ms before navigation start: Chromium painting the blank page in the frame the load then took.
    const ts = manifest.lifecycle.navigationStartMonotonic * 1e6 - 17_000;
    trace.push({ name: "RunTask", ph: "X", ts, dur: 9_000, pid: main.pid, tid: main.tid, args: {} });
    trace.push({ name: "Paint", ph: "X", ts: ts + 1_000, dur: 2_000, pid: main.pid, tid: main.tid, args: { data: { frame } } });
    writeFileSync(join(early, "trace.json"), JSON.stringify(file));
    const g = buildGraph(loadRecording(early));
    assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), "early-render"), []);
    assert.ok(g.nodes.every((n) => n.start >= 0), "no node before the navigation started");
    const renders = (x: typeof g) => x.nodes.filter((n) => n.kind === "render").length;
    assert.equal(renders(g), renders(buildGraph(loadRecording(good))), "the renderings of the load itself, no more");
  });

  it("a recording that is not there, and a graph file that is damaged, are named", async () => {
    assert.throws(() => loadRecording(join(root, "nope")), new RegExp(`${root}/nope: no such recording directory`));
    const bad = join(root, "bad-graph.json");
    writeFileSync(bad, JSON.stringify({ schemaVersion: 1, kind: "pagepath-graph" }));
    const r = await runCli(["validate", bad]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, new RegExp(`INVALID  ${bad}: not a valid pagepath graph`));
    const d = await runCli(["dot", bad]);
    assert.equal(d.code, 1);
    assert.match(d.stderr, /not a valid pagepath graph/);
  });
});

describe("the multi-origin fixture's graph", () => {
  it("has frames, every kind of node, a critical path to load, and renders through Graphviz", async () => {
    const site = await startFixture();
    const root = tempDir("build-fixture");
    try {
      writeRecording(join(root, "rec"), (await recordPage(site.config.entry, optionsFor(site))).recording);
    } finally {
      await site.close();
    }
    const r = await runCli(["build", join(root, "rec"), "-o", root]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const g = readGraphFile(join(root, "rec.json"));
    const kinds = new Set(g.nodes.map((n) => n.kind));
    for (const k of ["download", "parse", "resource", "script", "css", "timer", "dcl", "load"]) assert.ok(kinds.has(k as never), `has ${k} nodes`);
    assert.equal(g.frames.length, 2, "main frame and the ad iframe");
    const load = g.frames.find((f) => f.id === g.mainFrame)!.load;
    assert.equal(g.criticalPath.nodes.at(-1), load);
    const b = g.criticalPath.breakdown;
    assert.ok(Math.abs(b.network + b.script + b.parse + b.css + b.other - g.criticalPath.totalMs) < 0.01);
    const ranked = g.nodes.filter((n) => n.priority?.criticalPathRank !== null && n.priority?.criticalPathRank !== undefined);
    assert.deepEqual(ranked.map((n) => n.priority!.criticalPathRank).sort((x, y) => x! - y!), ranked.map((_, i) => i), "resource ranks are 0..n-1");
    const timer = g.nodes.find((n) => n.resource?.url.endsWith("/img/timer.png"))!;
    const edge = g.edges.find((e) => e.to === timer.id)!;
    assert.equal(g.nodes.find((n) => n.id === edge.from)!.kind, "timer");
    assert.deepEqual([edge.rule, edge.how], ["R2", "observed"]);
    const svg = await runCli(["dot", join(root, "rec.json"), "--format", "svg"]);
    assert.equal(svg.code, 0, svg.stderr);
    const text = readFileSync(join(root, "rec.svg"), "utf8");
    assert.match(text, /<svg/);
    assert.match(text, /cluster/);
  });
});
