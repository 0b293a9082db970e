import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { readAccuracySamplesFile, readRunResultFile, type RunResult } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { buildCorpusGraphs } from "./corpus-graphs.js";
import { tempDir } from "./fixture-profile.js";
import { withTopology } from "./net-topology.js";
import { assertChromiumLoadAfterItsFetches, assertDependenciesRespected, assertEveryResourceFetched } from "./replay-client-checks.js";

const SITES = ["real-jquery-ui", "real-sb-admin-2"];

/**
 * Both replay clients, the emulated browser and Chromium, load corpus sites from the replay servers
 * through emulated topologies, as `pagepath replay` runs them.
 */
describe("replay clients on corpus sites", () => {
  const work = tempDir("clients");
  const data = join(work, "data");
  const graphs = new Map<string, Graph>();
  before(async () => {
    for (const [site, g] of await buildCorpusGraphs(data, SITES)) graphs.set(site, g);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** One replay through topology `net`; its run result, validated as it is read. */
  async function replay(site: string, net: string, client: string, args: string[]): Promise<RunResult> {
    const out = join(work, `${site}-${net}-${client}-${args.join("_").replace(/[^a-z0-9_.]/gi, "")}.json`);
    const r = await runCli(["replay", join(data, "graphs", `${site}.json`), "--client", client, "--net", net, "--out", out, "--timeout", "60", ...args], 180_000);
    assert.equal(r.code, 0, `${site} ${client} ${args.join(" ")}: ${r.stdout}${r.stderr}`);
    const run = readRunResultFile(out);
    assert.equal(run.status, "ok", String(run.error));
    return run;
  }

  function checkRun(site: string, run: RunResult, protocol: string): void {
    const g = graphs.get(site)!;
    assertEveryResourceFetched(g, run);
    if (run.client === "emulated") assertDependenciesRespected(g, run);
    else assertChromiumLoadAfterItsFetches(g, run);
    const https = run.connections.filter((c) => c.origin.startsWith("https:"));
    assert.ok(https.length > 0 && https.every((c) => c.protocol === protocol), `${run.client}: ${JSON.stringify(https.map((c) => [c.origin, c.protocol]))}`);
    const body = (run.requests ?? []).reduce((sum, r) => sum + (r.bodyBytes ?? 0), 0);
    const carried = run.paths.reduce((sum, p) => sum + p.bytesDown!, 0);
    assert.ok(carried >= body, `the paths carried ${carried} bytes down, less than the ${body} bytes of bodies`);
  }

  it("load every site over HTTP/1.1, HTTP/2 and HTTP/3 on one path, fetching every resource in dependency order", async () => {
    await withTopology("rc-one", ["--paths", "1", "--rate-mbit", "20", "--delay-ms", "10"], async () => {
      for (const site of SITES) {
        for (const protocol of ["h1", "h2", "h3"]) {
          for (const client of ["emulated", "chromium"]) {
            const run = await replay(site, "rc-one", client, ["--protocol", protocol]);
            checkRun(site, run, protocol);
            console.log(`${site} ${protocol} ${client}: load ${run.metrics.loadMs} ms, ${run.requests!.length} requests, ${run.connections.length} connections`);
          }
        }
      }
    });
  });

  it("over HTTP/3 both clients acknowledge as Chromium's QUIC does: once 100 packets are in, about every tenth", async () => {
    // 5 Mbit/s and 100 ms: packets arrive one by one, and a quarter of the RTT spans about ten. A
    // queue deeper than the page, so that no loss makes either client acknowledge gaps at once.
    for (const client of ["emulated", "chromium"]) {
      const out = join(work, `acks-${client}.json`);
      const link = ["--rate-mbit", "5", "--rtt-ms", "100", "--queue-packets", "1000"];
      const r = await runCli(["replay", join(data, "graphs", "real-sb-admin-2.json"), "--client", client, ...link, "--protocol", "h3", "--qlog", "--out", out], 180_000);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const { sent, acks } = busiestQuicConnection(join(work, `acks-${client}.servers`, "qlog"));
      assert.ok(sent >= 100, `${client}: the busiest connection sent ${sent} packets past the 110th, too few to tell`);
      // Every second packet, as tquic acknowledges by default, would be about sent / 2.
      assert.ok(acks * 4 < sent, `${client}: ${acks} acknowledgements for ${sent} packets past the 110th`);
    }
  });

  it("Chromium's run keeps its recording on request, and it builds into a graph of the same fetches; the emulated browser refuses the option", async () => {
    const site = SITES[1]!;
    const kept = join(work, "kept-recording");
    const graphFile = join(data, "graphs", `${site}.json`);
    const r = await runCli(["replay", graphFile, "--client", "chromium", "--rate-mbit", "20", "--rtt-ms", "20", "--keep-recording", kept, "--out", join(work, "kept.json")], 180_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const built = await runCli(["build", kept, "-o", join(work, "kept-graphs")], 120_000);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    const urls = (g: Graph) => new Set(g.nodes.filter((n) => n.kind === "resource" && !n.resource!.url.endsWith("/favicon.ico")).map((n) => n.resource!.url));
    const replayed = urls(readGraphFile(join(work, "kept-graphs", "kept-recording.json")));
    const missing = [...urls(graphs.get(site)!)].filter((u) => !replayed.has(u));
    assert.deepEqual(missing, [], "every fetch of the recorded page is in the graph of Chromium's replay");
    const refused = await runCli(["replay", graphFile, "--client", "emulated", "--keep-recording", kept], 60_000);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /--keep-recording: only Chromium makes a recording/);
  });

  it("the emulated browser's HTTP/1.x modes: a connection per request, k keep-alive connections, pipelining", async () => {
    await withTopology("rc-h1", ["--paths", "1", "--rate-mbit", "20", "--delay-ms", "10"], async () => {
      const site = SITES[0]!;
      const perRequest = await replay(site, "rc-h1", "emulated", ["--protocol", "h1.0"]);
      const two = await replay(site, "rc-h1", "emulated", ["--protocol", "h1", "--connections", "2"]);
      const piped = await replay(site, "rc-h1", "emulated", ["--protocol", "h1-pipelined", "--connections", "1"]);
      for (const run of [perRequest, two, piped]) checkRun(site, run, "h1");
      assert.equal(perRequest.connections.length, perRequest.requests!.length, "HTTP/1.0: one connection per request");
      const perOrigin = (run: RunResult) => {
        const counts = new Map<string, number>();
        for (const c of run.connections) counts.set(c.origin, (counts.get(c.origin) ?? 0) + 1);
        return Math.max(...counts.values());
      };
      assert.ok(perOrigin(two) <= 2, `at most 2 connections per origin, got ${perOrigin(two)}`);
      assert.equal(perOrigin(piped), 1);
    });
  });

  it("carry bytes over both paths: MPTCP for both clients, multipath QUIC for the emulated browser", async () => {
    await withTopology("rc-two", ["--paths", "2", "--rate-mbit", "4", "--delay-ms", "10"], async () => {
      const site = SITES[1]!;
      const runs = [
        await replay(site, "rc-two", "emulated", ["--protocol", "h2", "--transport", "mptcp"]),
        await replay(site, "rc-two", "chromium", ["--protocol", "h2", "--transport", "mptcp"]),
        await replay(site, "rc-two", "emulated", ["--protocol", "h3", "--transport", "mpquic"]),
      ];
      for (const run of runs) {
        checkRun(site, run, run.configuration.protocol);
        const down = run.paths.map((p) => p.bytesDown!);
        const total = down[0]! + down[1]!;
        console.log(`${run.configuration.transport} ${run.client}: ${down.join(" / ")} bytes down the two paths`);
        assert.ok(down.every((b) => b > total * 0.1), `${run.configuration.transport} ${run.client}: bytes down per path ${down.join(", ")}`);
      }
      const mpquic = runs[2]!.connections.filter((c) => c.transport === "mpquic");
      assert.ok(mpquic.some((c) => c.paths.length === 2 && c.paths.every((p) => p.bytesDown! > 0)), JSON.stringify(runs[2]!.connections));
    });
  });

  it("pagepath accuracy gathers Chromium's runs, then compares the clients per site and condition, and resumes", async () => {
    const out = join(work, "accuracy");
    const args = ["accuracy", "--data", data, "--sites", SITES[0]!, "--conditions", "20:20,5:100", "--runs", "1", "--out", out];
    // A budget spent before the first load: nothing runs, and that is no failure.
    const none = await runCli([...args, "--clients", "chromium", "--stop-after", "0.001s"], 120_000);
    assert.equal(none.code, 0, none.stdout + none.stderr);
    assert.match(none.stderr, /--stop-after 0\.001s passed with 2 loads left; the same command resumes them/);
    assert.ok(!existsSync(join(out, "runs.jsonl")) || readFileSync(join(out, "runs.jsonl"), "utf8") === "");
    const chromium = await runCli([...args, "--clients", "chromium"], 10 * 60_000);
    assert.equal(chromium.code, 0, chromium.stdout + chromium.stderr);
    assert.match(chromium.stderr, /x 1 client = 2 loads/);
    const clients = readFileSync(join(out, "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).client);
    assert.deepEqual(clients, ["chromium", "chromium"]);
    // A second Chromium run and two of the model per condition, two workers taking them in turn.
    const r = await runCli([...args.map((a, i) => (args[i - 1] === "--runs" ? "2" : a)), "--workers", "2"], 10 * 60_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /= 8 loads, 2 already in/);
    const later = readFileSync(join(out, "runs.jsonl"), "utf8").trim().split("\n").slice(2).map((l) => JSON.parse(l));
    const span = (x: { startedAt: string; metrics: { loadMs: number } }) => [Date.parse(x.startedAt), Date.parse(x.startedAt) + x.metrics.loadMs];
    const overlapping = later.some((a, i) => later.some((b, j) => i !== j && span(a)[0]! <= span(b)[0]! && span(b)[0]! < span(a)[1]!));
    assert.ok(overlapping, `two workers load at once: ${JSON.stringify(later.map((x) => [x.client, x.startedAt, x.metrics.loadMs]))}`);
    const result = JSON.parse(readFileSync(join(out, "accuracy.json"), "utf8"));
    const load = result.summary.groups.find((g: { metric: string; protocol: string }) => g.metric === "load" && g.protocol === "h2");
    assert.ok(load, `a load-time group for h2: ${JSON.stringify(result.summary.groups.map((g: { metric: string; protocol: string }) => [g.metric, g.protocol]))}`);
    assert.equal(load.cells.length, 2);
    for (const c of load.cells) assert.ok(c.apePercent >= 0 && c.chromium.medianMs > 0 && c.emulated.medianMs > 0, JSON.stringify(c));
    assert.match(r.stdout, /absolute percentage error: median \d/);
    const samples = readAccuracySamplesFile(join(out, "samples.json")).samples;
    assert.equal(samples.length, 8);
    assert.ok(samples.every((x) => x.graphSha256 === samples[0]!.graphSha256 && typeof x.metrics.load === "number"), JSON.stringify(samples));
    // Both clients name the recording the servers answered from, by its archive's hash.
    const archive = createHash("sha256").update(readFileSync(join(data, "recordings", SITES[0]!, "archive.json"))).digest("hex");
    assert.ok(samples.every((x) => x.recordingSha256 === archive), `every run names the recording ${archive}: ${JSON.stringify(samples.map((x) => x.recordingSha256))}`);
    assert.equal((readFileSync(join(out, "accuracy-load-h2.svg"), "utf8").match(/<circle/g) ?? []).length, 2);
    const again = await runCli(args, 120_000);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /4 already in/);
    assert.equal(readFileSync(join(out, "runs.jsonl"), "utf8").trim().split("\n").length, 8);
  });

  it("pagepath accuracy compares the clients over two-path MPTCP, Chromium through mptcpize, both using both paths", async () => {
    const out = join(work, "accuracy-mptcp");
    const r = await runCli(["accuracy", "--data", data, "--sites", SITES[0]!, "--conditions", "10:40+5:100", "--protocols", "h2/mptcp", "--runs", "1", "--out", out], 10 * 60_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const result = JSON.parse(readFileSync(join(out, "accuracy.json"), "utf8"));
    const load = result.summary.groups.find((g: { metric: string; protocol: string }) => g.metric === "load" && g.protocol === "h2/mptcp");
    assert.ok(load, JSON.stringify(result.summary.groups.map((g: { metric: string; protocol: string }) => [g.metric, g.protocol])));
    assert.deepEqual(load.cells.map((c: { condition: string }) => c.condition), ["10mbit-40ms_5mbit-100ms"]);
    assert.ok(existsSync(join(out, "accuracy-load-h2-mptcp.svg")));
    const runs = readFileSync(join(out, "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(runs.map((x) => x.client).sort(), ["chromium", "emulated"]);
    for (const run of runs) {
      assert.deepEqual(run.configuration.network.paths.map((p: { downMbps: number; rttMs: number }) => [p.downMbps, p.rttMs]), [[10, 40], [5, 100]]);
      assert.ok(run.paths.every((p: { bytesDown: number }) => p.bytesDown > 10_000), `${run.client}: ${JSON.stringify(run.paths)}`);
    }
  });
});

/**
 * In the server's qlog of the connection that sent the most 1-RTT packets: how many it sent
 * numbered past 110, and how many client packets acknowledged one of those.
 */
function busiestQuicConnection(dir: string): { sent: number; acks: number } {
  const counts = readdirSync(dir).map((f) => {
    const events = readFileSync(join(dir, f), "utf8").split("\x1e").map((t) => t.trim()).filter(Boolean).map((t) => JSON.parse(t));
    const oneRtt = events.filter((e) => e.data?.header?.packet_type === "1RTT");
    const sent = oneRtt.filter((e) => e.name === "quic:packet_sent" && e.data.header.packet_number > 110).length;
    const acks = oneRtt.filter((e) => e.name === "quic:packet_received").filter((e) =>
      (e.data.frames ?? []).some((fr: { frame_type: string; acked_ranges?: number[][] }) => fr.frame_type === "ack" && Math.max(...(fr.acked_ranges ?? []).flat()) > 110)).length;
    return { sent, acks };
  });
  return counts.reduce((a, b) => (b.sent > a.sent ? b : a), { sent: 0, acks: 0 });
}
