import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { buildGraph, loadRecording, type Graph } from "@pagepath/graph-builder";
import { recordPage, writeRecording } from "@pagepath/profiler";
import { readRunResultFile } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";
import { withTopology } from "./net-topology.js";
import { assertDependenciesRespected, assertEveryResourceFetched } from "./replay-client-checks.js";

/**
 * The multi-origin fixture entered over http: its document and same-origin requests come over clear
 * HTTP/1.1, its other origins over https, so the emulated browser runs both kinds of connection in
 * one run, whatever the run's protocol.
 */
describe("the emulated browser on a page of http and https origins", () => {
  const work = tempDir("mixed-schemes");
  const graphFile = join(work, "graph.json");
  let graph: Graph;
  before(async () => {
    const site = await startFixture();
    const recording = join(work, "rec");
    try {
      const { recording: r } = await recordPage(site.config.entry.replace(/^https:/, "http:"), optionsFor(site));
      writeRecording(recording, r);
    } finally {
      await site.close();
    }
    graph = buildGraph(loadRecording(recording));
    writeFileSync(graphFile, JSON.stringify(graph));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("replays it over HTTP/2, HTTP/1.1 and HTTP/3 to a valid, complete run, each connection under an id of its own", async () => {
    const origins = new Set(graph.nodes.map((n) => n.resource?.origin).filter((o) => o !== undefined));
    assert.ok(origins.has("http://www.fixture.test") && origins.has("https://static.fixture.test"), `the page mixes schemes: ${[...origins]}`);
    await withTopology("rm-mixed", ["--paths", "1", "--rate-mbit", "50", "--delay-ms", "5"], async () => {
      for (const protocol of ["h2", "h1", "h3"]) {
        const out = join(work, `run-${protocol}.json`);
        const r = await runCli(["replay", graphFile, "--client", "emulated", "--net", "rm-mixed", "--protocol", protocol, "--out", out, "--timeout", "60"], 120_000);
        assert.equal(r.code, 0, `${protocol}: ${r.stdout}${r.stderr}`);
        const run = readRunResultFile(out);
        assert.equal(run.status, "ok", `${protocol}: ${run.error}`);
        const ids = run.connections.map((c) => c.id);
        assert.equal(new Set(ids).size, ids.length, `${protocol}: connection ids ${ids}`);
        for (const c of run.connections) {
          assert.equal(c.protocol, c.origin.startsWith("http:") ? "h1" : protocol, `${protocol}: ${c.id} to ${c.origin}`);
        }
        assert.ok(run.connections.some((c) => c.origin.startsWith("http:")), `${protocol}: no connection to the http origin`);
        assertEveryResourceFetched(graph, run);
        assertDependenciesRespected(graph, run);
        const body = (run.requests ?? []).reduce((sum, q) => sum + (q.bodyBytes ?? 0), 0);
        const carried = run.connections.flatMap((c) => c.paths).reduce((sum, p) => sum + (p.bytesDown ?? 0), 0);
        assert.ok(carried >= body, `${protocol}: the connections carried ${carried} bytes down, less than the ${body} bytes of bodies`);
      }
    });
  });
});
