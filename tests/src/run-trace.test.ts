import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Graph } from "@pagepath/graph-builder";
import { runToTrace, validateRunResult, type RunResult, type TraceEvent } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { twoPathRun } from "./two-path-run.js";

const GRAPH_FILE = fileURLToPath(new URL("../../../graph-builder/test-vectors/valid/two-frames.json", import.meta.url));
const graph = JSON.parse(readFileSync(GRAPH_FILE, "utf8")) as Graph;
const NODE_CATS = new Set(["computation", "fetch", "marker"]);
const dirs: string[] = [];

/**
 * TEST INPUT, not a measurement: an emulated HTTP/2 replay of the two-frames graph vector whose node
 * times are the recorded ones stretched by 1.1 (so they have fractions), a fetch per resource and
 * document, the main origin's on one connection (css1 and js1 overlap on it) and the frame's on another.
 */
function sampleTraceRun(): RunResult {
  const ms = (t: number) => t * 1.1;
  const emulated = graph.nodes.filter((n) => n.excluded === null);
  const fetches = emulated.filter((n) => n.kind === "resource" || (n.kind === "download" && n.chunk?.index === 0));
  return {
    schemaVersion: 1,
    kind: "pagepath-run",
    experiment: null,
    site: { name: "two-frames", graph: "graphs/two-frames.json", graphSha256: createHash("sha256").update(readFileSync(GRAPH_FILE)).digest("hex") },
    client: "emulated",
    configuration: {
      protocol: "h2",
      transport: "tcp",
      network: { name: "test", paths: [{ upMbps: 5, downMbps: 10, rttMs: 20, loss: 0, queue: { discipline: "droptail", packets: 64 } }] },
      serverModel: "out-of-order",
      priority: "none",
      chunkSizeBytes: 16384,
      connectionsPerOrigin: 1,
      emulation: { preloader: true, cpuFactor: 1, waitFor: "load" },
    },
    run: 0,
    seed: 5,
    versions: { pagepath: "test-fixture" },
    startedAt: "2025-01-01T00:00:00.000Z",
    status: "ok",
    error: null,
    timeoutMs: 30_000,
    metrics: { domContentLoadedMs: ms(104), loadMs: ms(142), graphCompleteMs: ms(143) },
    nodeTimings: emulated.map((n) => ({ nodeId: n.id, start: ms(n.start), end: ms(n.end) })),
    requests: fetches.map((n) => ({
      url: n.resource!.url,
      nodeId: n.id,
      status: 200,
      bodyBytes: n.resource!.bodySize,
      startMs: ms(n.start),
      endMs: ms(n.kind === "download" ? (graph.nodes.find((d) => d.kind === "download" && d.resource!.url === n.resource!.url && d.chunk!.last)!.end) : n.end),
      connection: n.resource!.url.startsWith("https://a.test/") ? "c0" : "c1",
    })),
    connections: [
      { id: "c0", origin: "https://a.test:443", protocol: "h2", transport: "tcp", openedMs: 0, closedMs: ms(150), paths: [{ path: 0, bytesUp: 900, bytesDown: 40_000 }] },
      { id: "c1", origin: "https://b.test:443", protocol: "h2", transport: "tcp", openedMs: ms(100), closedMs: null, paths: [{ path: 0, bytesUp: 300, bytesDown: 9000 }] },
    ],
    paths: [{ path: 0, bytesUp: 1200, bytesDown: 49_000 }],
    warnings: [],
  };
}

const near = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-6;
const threadNames = (events: TraceEvent[]) => new Map(events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => [e.tid, String(e.args!.name)]));

function dir(): string {
  const d = tempDir("run-trace");
  dirs.push(d);
  return d;
}

/** A run file with the graph where its site.graph says, as a sweep leaves them. */
function runOnDisk(run: RunResult = sampleTraceRun()): { dir: string; run: string } {
  const d = dir();
  mkdirSync(join(d, "graphs"));
  writeFileSync(join(d, "graphs", "two-frames.json"), readFileSync(GRAPH_FILE));
  writeFileSync(join(d, "run.json"), JSON.stringify(run));
  return { dir: d, run: join(d, "run.json") };
}

describe("a run result as a Chrome trace", () => {
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("times every node once, in µs, on the thread its kind belongs to, named by the graph's labels", () => {
    const run = sampleTraceRun();
    assert.deepEqual(validateRunResult(run, "sample"), []);
    const { traceEvents } = runToTrace(run, graph);
    const names = threadNames(traceEvents);
    assert.ok(run.nodeTimings!.length > 10);
    for (const t of run.nodeTimings!) {
      const found = traceEvents.filter((e) => NODE_CATS.has(e.cat ?? "") && e.args?.nodeId === t.nodeId);
      assert.equal(found.length, 1, `node ${t.nodeId}: ${found.length} events`);
      const e = found[0]!;
      const node = graph.nodes.find((n) => n.id === t.nodeId)!;
      assert.ok(near(e.ts, t.start * 1000), `${t.nodeId}: ts ${e.ts}, start ${t.start} ms`);
      assert.ok(near(e.dur ?? 0, (t.end - t.start) * 1000), `${t.nodeId}: dur ${e.dur}`);
      assert.equal(e.name, node.label);
      const thread = names.get(e.tid)!;
      if (["parse", "script", "css", "timer", "event"].includes(node.kind)) assert.match(thread, /^main thread/);
      else if (node.kind === "dcl" || node.kind === "load") assert.deepEqual([e.ph, e.s, thread], ["I", "t", "main thread"]);
      else assert.match(thread, /^fetch nodes/);
    }
  });

  it("marks DOMContentLoaded, load and graph completion as global instants", () => {
    const run = sampleTraceRun();
    const { traceEvents } = runToTrace(run, graph);
    const marks = traceEvents.filter((e) => e.ph === "I" && e.s === "g");
    assert.deepEqual(
      marks.map((e) => e.name),
      ["DOMContentLoaded", "load", "graph complete"],
    );
    assert.ok(near(marks[0]!.ts, run.metrics.domContentLoadedMs! * 1000));
    assert.ok(near(marks[1]!.ts, run.metrics.loadMs! * 1000));
    assert.ok(near(marks[2]!.ts, run.metrics.graphCompleteMs! * 1000));
  });

  it("puts each request on its connection's threads, overlapping ones on separate threads, an unfinished one left open", () => {
    const run = sampleTraceRun();
    run.status = "incomplete";
    run.error = "TEST INPUT: data.json never arrived";
    const stuck = run.requests!.findIndex((q) => q.url.endsWith("/api/data.json"));
    run.requests![stuck]!.endMs = null;
    const { traceEvents } = runToTrace(run, graph);
    const names = threadNames(traceEvents);
    run.requests!.forEach((q, i) => {
      const found = traceEvents.filter((e) => e.cat === "request" && e.args?.request === i);
      assert.equal(found.length, 1, q.url);
      assert.match(names.get(found[0]!.tid)!, new RegExp(`^connection ${q.connection} `));
      assert.equal(found[0]!.ph, i === stuck ? "B" : "X");
      assert.equal(found[0]!.name, q.url.split("/").at(-1));
    });
    const css = traceEvents.find((e) => e.name === "style.css" && e.cat === "request")!;
    const js = traceEvents.find((e) => e.name === "app.js" && e.cat === "request")!;
    assert.notEqual(css.tid, js.tid, "css1 and js1 overlap, so they cannot share a thread");
    // Complete slices on one thread must not overlap (none of ours nest).
    const slices = traceEvents.filter((e) => e.ph === "X" || e.ph === "B");
    for (const tid of new Set(slices.map((e) => e.tid))) {
      const sorted = slices.filter((e) => e.tid === tid).sort((a, b) => a.ts - b.ts);
      sorted.slice(1).forEach((e, i) => assert.ok(sorted[i]!.ph === "X" && sorted[i]!.ts + sorted[i]!.dur! <= e.ts + 1e-6, `thread ${names.get(tid)}: ${sorted[i]!.name} overlaps ${e.name}`));
    }
    const counter = traceEvents.find((e) => e.ph === "C")!;
    assert.deepEqual(counter.args, { up: 1200, down: 49_000 });
  });

  it("counts each path's response bytes sent so far, stepping at each request's last byte on the path", () => {
    const run = twoPathRun();
    const { traceEvents } = runToTrace(run, graph);
    const counters = traceEvents.filter((e) => e.ph === "C" && e.cat === "path bytes");
    const track = (path: number) => counters.filter((e) => e.name === `path ${path} response bytes sent`).map((e) => [e.ts, e.args!.bytes]);
    // frames.html, style.css, app.js's 22848 bytes, data.json and frame.html on path 0; app.js's other 7300 on path 1.
    assert.deepEqual(track(0), [[0, 0], [75_000, 1448], [99_000, 3496], [123_000, 26_344], [151_000, 26_692], [181_200, 27_340]]);
    assert.deepEqual(track(1), [[0, 0], [83_000, 7300]]);
    assert.equal(counters.length, 8, "one track per path, nothing else in the category");
    assert.ok(counters.every((e) => e.pid === 1 && e.tid === 0));
    const labels = String(traceEvents.find((e) => e.name === "process_labels")!.args!.labels);
    assert.match(labels, /h3\/mpquic, network 10M-20ms_2M-100ms, .*, scheduler ecf beta=1, seed 7/);

    // Requests that did not record their paths add nothing, and give no track when none did.
    run.requests![2]!.paths = null;
    assert.deepEqual(runToTrace(run, graph).traceEvents.filter((e) => e.name === "path 1 response bytes sent"), []);
    run.requests = run.requests!.map((q) => ({ ...q, paths: null }));
    assert.deepEqual(runToTrace(run, graph).traceEvents.filter((e) => e.cat === "path bytes"), []);
  });

  it("without the graph names slices by node id and tells fetches by the requests", () => {
    const run = sampleTraceRun();
    const { traceEvents, metadata } = runToTrace(run);
    const names = threadNames(traceEvents);
    const fetched = new Set(run.requests!.map((q) => q.nodeId));
    for (const t of run.nodeTimings!) {
      const e = traceEvents.find((x) => NODE_CATS.has(x.cat ?? "") && x.args?.nodeId === t.nodeId)!;
      assert.equal(e.name, t.nodeId);
      assert.match(names.get(e.tid)!, fetched.has(t.nodeId) ? /^fetch nodes/ : /^main thread/);
    }
    assert.equal(metadata.labelsFromGraph, false);
  });

  it("gives the same events in the same order for the same run", () => {
    const a = runToTrace(sampleTraceRun(), graph);
    const b = runToTrace(sampleTraceRun(), structuredClone(graph));
    assert.equal(JSON.stringify(a), JSON.stringify(b));
    const meta = a.traceEvents.findIndex((e) => e.ph !== "M");
    assert.ok(a.traceEvents.slice(meta).every((e, i, all) => e.ph !== "M" && (i === 0 || all[i - 1]!.ts <= e.ts)));
    assert.equal(a.traceEvents[0]!.args!.name, "pagepath run two-frames (emulated)");
  });

  it("pagepath trace writes the trace next to the run, finding the graph from site.graph", async () => {
    const files = runOnDisk();
    const r = await runCli(["trace", files.run]);
    assert.equal(r.code, 0, r.stderr);
    const out = join(files.dir, "run.trace.json");
    assert.match(r.stdout, /wrote .*run\.trace\.json/);
    assert.match(r.stdout, /open it in Perfetto or chrome:\/\/tracing/);
    assert.doesNotMatch(r.stdout, /https?:/);
    const trace = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(trace.metadata.labelsFromGraph, true);
    assert.ok(trace.traceEvents.some((e: TraceEvent) => e.name === "parse frames.html L1-L8" && e.cat === "computation"));

    rmSync(join(files.dir, "graphs"), { recursive: true });
    const alone = await runCli(["trace", files.run, "-o", join(files.dir, "alone.json")]);
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stderr, /warning: .*two-frames\.json: no such file; going on without the graph/);
    assert.equal(JSON.parse(readFileSync(join(files.dir, "alone.json"), "utf8")).metadata.labelsFromGraph, false);
  });

  it("pagepath trace writes a multipath run's per-path counters", async () => {
    const files = runOnDisk(twoPathRun());
    const r = await runCli(["trace", files.run]);
    assert.equal(r.code, 0, r.stderr);
    const trace = JSON.parse(readFileSync(join(files.dir, "run.trace.json"), "utf8"));
    const last = (path: number) => trace.traceEvents.filter((e: TraceEvent) => e.name === `path ${path} response bytes sent`).at(-1)?.args.bytes;
    assert.deepEqual([last(0), last(1)], [27_340, 7300]);
    assert.deepEqual(trace.metadata.configuration.scheduler, { name: "ecf", options: { beta: "1" } });
  });

  it("pagepath trace picks a line of a runs file", async () => {
    const d = dir();
    const second = { ...sampleTraceRun(), seed: 77 };
    writeFileSync(join(d, "x.runs.jsonl"), [sampleTraceRun(), second].map((r) => JSON.stringify(r) + "\n").join(""));
    const r = await runCli(["trace", join(d, "x.runs.jsonl"), "--line", "2", "--graph", GRAPH_FILE]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(readFileSync(join(d, "x.runs.line2.trace.json"), "utf8")).metadata.seed, 77);
  });

  it("pagepath trace refuses bad input with exit code 2, naming the file", async () => {
    const bad = sampleTraceRun();
    bad.configuration.http1 = "1.1";
    const files = runOnDisk(bad);
    const invalid = await runCli(["trace", files.run]);
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, new RegExp(`${files.run.replaceAll(".", "\\.")}: /configuration/http1: is "1.1", but protocol is h2`));
    assert.ok(!existsSync(join(files.dir, "run.trace.json")));

    writeFileSync(join(files.dir, "cut.json"), '{"schemaVersion": 1, "kind": ');
    const cut = await runCli(["trace", join(files.dir, "cut.json")]);
    assert.equal(cut.code, 2);
    assert.match(cut.stderr, /cut\.json: not valid JSON/);

    const missing = await runCli(["trace", join(files.dir, "nowhere.json")]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nowhere\.json: no such file/);

    writeFileSync(join(files.dir, "one.runs.jsonl"), JSON.stringify(sampleTraceRun()) + "\n");
    const beyond = await runCli(["trace", join(files.dir, "one.runs.jsonl"), "--line", "3"]);
    assert.equal(beyond.code, 2);
    assert.match(beyond.stderr, /one\.runs\.jsonl: line 3: there is no run there/);
  });
});
