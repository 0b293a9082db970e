import assert from "node:assert/strict";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { readRunResultFile } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { netnsList, withTopology } from "./net-topology.js";

const SITE = "fixture-multi-origin";

/** What `pagepath replay` does with bad input (before anything starts) and with a load that stalls. */
describe("replay clients: bad input and stalled loads", () => {
  const work = tempDir("client-bad");
  const data = join(work, "data");
  const graphFile = join(data, "graphs", `${SITE}.json`);
  const recording = join(data, "recordings", SITE);
  let graph: Graph;
  before(async () => {
    const r = await runCli(["corpus", "build", "--data", data, "--only", SITE, "--quiet-ms", "1500"], 5 * 60_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    graph = readGraphFile(graphFile);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** A fetch the main frame's load event waits for, and not the page itself. */
  const awaitedResource = () => {
    const waited = new Set(graph.edges.filter((e) => e.rule === "completion-load").map((e) => e.from));
    return graph.nodes.find((n) => n.kind === "resource" && n.excluded === null && waited.has(n.id) && n.resource!.fromCache === null)!;
  };

  async function rejected(args: string[], ...expected: RegExp[]): Promise<void> {
    const before = await netnsList();
    const r = await runCli(["replay", ...args], 60_000);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    for (const e of expected) assert.match(r.stderr, e);
    assert.deepEqual(await netnsList(), before, "nothing was started");
  }

  it("refuses a graph that fails validation, naming the file and the place", async () => {
    const bad = join(work, "bad-graph.json");
    const g = JSON.parse(readFileSync(graphFile, "utf8"));
    g.nodes[3].kind = "teleport";
    writeFileSync(bad, JSON.stringify(g));
    await rejected([bad, "--client", "emulated", "--recording", recording], /bad-graph\.json/, /\/nodes\/3\/kind/);
  });

  it("refuses a graph whose fetches are not in the recording's archive, naming them", async () => {
    const copy = join(work, "short-recording");
    cpSync(recording, copy, { recursive: true });
    const missing = awaitedResource();
    const archive = JSON.parse(readFileSync(join(copy, "archive.json"), "utf8"));
    writeFileSync(join(copy, "archive.json"), JSON.stringify(archive.filter((e: any) => !missing.resource!.archiveIds.includes(e.id))));
    await rejected([graphFile, "--client", "chromium", "--recording", copy], /archive\.json/, new RegExp(missing.resource!.url.replace(/[.?*+()[\]]/g, "\\$&")));
  });

  it("refuses Chromium over multipath QUIC, which Chromium does not have, in replay and in accuracy", async () => {
    await rejected(
      [graphFile, "--client", "chromium", "--protocol", "h3", "--transport", "mpquic", "--paths", "2", "--recording", recording, "--out", join(work, "mpquic.json")],
      /--transport mpquic: Chromium has no multipath QUIC/,
      /use --client emulated for mpquic, or --transport quic/,
    );
    const out = join(work, "accuracy-mpquic");
    const r = await runCli(["accuracy", "--data", data, "--sites", SITE, "--protocol", "h3", "--transport", "mpquic", "--conditions", "100:20", "--runs", "1", "--out", out], 120_000);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /pagepath accuracy: --transport mpquic: Chromium has no multipath QUIC/);
    assert.ok(!existsSync(out), "no run was made");
  });

  it("refuses a topology that is not up", async () => {
    await rejected([graphFile, "--client", "emulated", "--net", "rc-not-there"], /--net rc-not-there: no such topology is up/);
  });

  it("ends a load that stalls at the timeout, marked incomplete with the reason, for both clients", async () => {
    const copy = join(work, "slow-recording");
    cpSync(recording, copy, { recursive: true });
    const slow = awaitedResource();
    const archive = JSON.parse(readFileSync(join(copy, "archive.json"), "utf8"));
    for (const e of archive) if (slow.resource!.archiveIds.includes(e.id)) e.serverDelay.ms = 600_000;
    writeFileSync(join(copy, "archive.json"), JSON.stringify(archive));
    await withTopology("rc-stall", ["--paths", "1", "--rate-mbit", "20", "--delay-ms", "5"], async () => {
      for (const client of ["emulated", "chromium"]) {
        const out = join(work, `stalled-${client}.json`);
        const started = Date.now();
        const r = await runCli(["replay", graphFile, "--client", client, "--net", "rc-stall", "--recording", copy, "--timeout", "6", "--out", out], 120_000);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.ok(Date.now() - started < 60_000, "the run ended near its timeout");
        const run = readRunResultFile(out);
        assert.equal(run.status, "incomplete");
        assert.equal(run.metrics.loadMs, null);
        if (client === "emulated") assert.match(run.error!, new RegExp(`timed out after 6 s waiting for .*${slow.resource!.url.replace(/[.?*+()[\]]/g, "\\$&")}`));
        else assert.match(run.error!, /load never fired/);
      }
    });
  });
});
