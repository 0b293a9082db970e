import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readGraphFile } from "@pagepath/graph-builder";
import { readRecording, type ArchiveEntry } from "@pagepath/profiler";
import { runCli } from "./cli-run.js";
import { exportHarWithDevTools } from "./devtools-har.js";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";

const loadOf = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { metrics: { loadMs: number | null } }).metrics.loadMs;
/** What a replay serves of a response: its URL, status and body. */
const served = (a: ArchiveEntry[]) =>
  a.filter((e) => e.response && !e.fromCache && !e.failure).map((e) => `${e.url} ${e.response!.status} ${e.body?.sha256 ?? "-"}`).sort();

/**
 * The demo page recorded in Chromium, then exported as Chrome's HAR, as a HAR without Chrome's
 * extensions (as Firefox writes them), as an mm-webrecord folder and as a Web Page Replay archive;
 * and loaded once more in Chromium with its own DevTools attached, whose Network panel exports the
 * HAR; each imported, built and replayed with both clients.
 */
describe("recordings from other tools' files, made from the demo page", { skip: process.getuid?.() !== 0 ? "needs root to replay" : false }, () => {
  it("imports each, serves the same responses as the native recording, and replays with both clients; from a HAR the emulated load is within 20% of the native recording's", async (t) => {
    const out = tempDir("import-roundtrip");
    const demo = await runCli(["demo", "--out", out], 300_000);
    assert.equal(demo.code, 0, demo.stdout + demo.stderr);
    // Every format the demo writes is valid by its schema (pagepath validate knows each by its kind).
    const demoFiles = [join(out, "recording"), join(out, "graph.json"), join(out, "runs", "emulated.json"), join(out, "runs", "chromium.json")];
    const validated = await runCli(["validate", ...demoFiles]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    assert.equal(validated.stdout.split("\n").filter((l) => l.startsWith("ok ")).length, demoFiles.length, validated.stdout);
    const native = loadOf(join(out, "runs", "emulated.json"))!;
    const nativeChromium = loadOf(join(out, "runs", "chromium.json"))!;
    const nativeArchive = readRecording(join(out, "recording")).archive;
    const har = JSON.parse(readFileSync(join(out, "recording.har"), "utf8"));
    for (const e of har.log.entries) for (const o of [e, e.response]) for (const k of Object.keys(o)) if (k.startsWith("_")) delete o[k];
    writeFileSync(join(out, "plain.har"), JSON.stringify(har));
    for (const [format, args] of [["mahimahi", ["--out", join(out, "mm")]], ["wpr", ["--out", join(out, "page.wprgo")]]] as const) {
      const exported = await runCli(["export", format, join(out, "recording"), ...args]);
      assert.equal(exported.code, 0, exported.stdout + exported.stderr);
    }
    const site = await startFixture("multi-origin");
    try {
      // With DevTools attached, this 2-core machine's loads of the demo vary widely (load 250-500 ms
      // against the profiler's 280; the HAR's waits summed 280-740 ms), and an importer can only
      // take a HAR's waits for the server's time. The quickest of three loads is the one DevTools
      // disturbed least.
      type Har = { log: { creator: { name: string }; pages: { pageTimings: { onLoad: number } }[] } };
      const hars: Har[] = [];
      for (let i = 0; i < 3; i++) hars.push((await exportHarWithDevTools(site.config.entry, optionsFor(site))) as Har);
      const devtoolsHar = hars.sort((a, b) => a.log.pages[0]!.pageTimings.onLoad - b.log.pages[0]!.pageTimings.onLoad)[0]!;
      t.diagnostic(`DevTools' loads: ${hars.map((h) => h.log.pages[0]!.pageTimings.onLoad.toFixed(0)).join(", ")} ms`);
      assert.equal(devtoolsHar.log.creator.name, "WebInspector", "written by DevTools' own HAR writer");
      writeFileSync(join(out, "devtools.har"), JSON.stringify(devtoolsHar));
    } finally {
      await site.close();
    }
    const sources = [
      { name: "devtools-har", format: "har", file: join(out, "devtools.har"), inferred: 0, timed: true },
      { name: "chrome-har", format: "har", file: join(out, "recording.har"), inferred: 0, timed: true },
      { name: "plain-har", format: "har", file: join(out, "plain.har"), inferred: 20, timed: true },
      { name: "mahimahi", format: "mahimahi", file: join(out, "mm"), inferred: 18, timed: false },
      { name: "wpr", format: "wpr", file: join(out, "page.wprgo"), inferred: 18, timed: false },
    ];
    for (const s of sources) {
      const recordings = join(out, `imported-${s.name}`);
      const imported = await runCli(["import", s.format, s.file, "--out", recordings]);
      assert.equal(imported.code, 0, imported.stdout + imported.stderr);
      assert.match(imported.stdout, new RegExp(` ${s.inferred} initiators inferred`), s.name);
      const recording = join(recordings, readdirSync(recordings)[0]!);
      assert.deepEqual(served(readRecording(recording).archive), served(nativeArchive), `${s.name}: the same responses as the native recording`);
      const graphs = join(out, `graphs-${s.name}`);
      const built = await runCli(["build", recording, "-o", graphs]);
      assert.equal(built.code, 0, built.stdout + built.stderr);
      const graph = join(graphs, readdirSync(graphs).find((f) => f.endsWith(".json") && f !== "manifest.json")!);
      const g = readGraphFile(graph);
      const frameDocuments = g.nodes.filter((n) => n.kind === "download" && n.frameId !== g.mainFrame && n.chunk?.index === 0);
      assert.ok(frameDocuments.length > 0, `${s.name}: the demo's iframe has a document`);
      for (const d of frameDocuments) assert.ok(g.edges.some((e) => e.to === d.id && e.rule === "R5"), `${s.name}: ${d.label} hangs off its parent frame's parsing, not off the root`);
      for (const client of ["emulated", "chromium"]) {
        const result = join(out, `${s.name}-${client}.json`);
        const run = await runCli(["replay", graph, "--client", client, "--out", result], 120_000);
        assert.equal(run.code, 0, run.stdout + run.stderr);
        const valid = await runCli(["validate", recording, graph, result]);
        assert.equal(valid.code, 0, `${s.name} ${client}: ${valid.stdout}${valid.stderr}`);
        const load = loadOf(result);
        assert.ok(load !== null && load > 0, `${s.name} ${client}: no load time`);
        t.diagnostic(`${s.name} ${client}: load ${load.toFixed(0)} ms (the native recording's: ${(client === "emulated" ? native : nativeChromium).toFixed(0)} ms)`);
        if (client === "emulated" && s.timed) assert.ok(Math.abs(load - native) <= 0.2 * native, `${s.name}: the emulated load took ${load} ms against the native recording's ${native} ms`);
      }
    }
  });
});
