import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { validateRunResult, type RequestRecord, type RunResult } from "@pagepath/results";
import type { Graph } from "@pagepath/graph-builder";
import { redirectChain, withRequestPaths } from "@pagepath/runner";
import { tempDir } from "./fixture-profile.js";

const TWO_PATHS = fileURLToPath(new URL("../../../replay/results/test-vectors/valid/run-emulated.json", import.meta.url));
const CLIENTS = ["10.10.0.2", "10.10.1.2"];

const request = (url: string, startMs: number): RequestRecord => ({ url, nodeId: null, status: 200, bodyBytes: 1000, startMs, endMs: startMs + 50, connection: null });
const entry = (path: number, remote: string, bytes: number, packets: number | null, firstUs: number, lastUs: number) => ({ path, local: "10.200.1.1:443", remote, bytes, packets, firstUs, lastUs });

describe("requests[].paths", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** A server output folder whose clock started `clockStartUnixMs`, with these streams.jsonl lines. */
  function serverOut(clockStartUnixMs: number | undefined, streams: object[]): string {
    const d = tempDir("request-paths");
    dirs.push(d);
    writeFileSync(join(d, "origins.json"), JSON.stringify({ schemaVersion: 1, kind: "pagepath-origins", ...(clockStartUnixMs === undefined ? {} : { clockStartUnixMs }) }));
    writeFileSync(join(d, "streams.jsonl"), streams.map((s) => JSON.stringify(s) + "\n").join(""));
    return d;
  }

  it("joins the servers' streams to the client's requests by URL in order, on the run's clock and the network's paths", () => {
    const startedAt = "2025-01-01T00:00:00.000Z";
    // the server's clock started 2.5 s before the run
    const out = serverOut(Date.parse(startedAt) - 2500, [
      // logged out of arrival order: the second /a.js arrived later
      { connection: 1, stream: 8, url: "https://www.p.test/a.js", times: { arrivalUs: 2_600_000 }, paths: [entry(1, "10.10.1.2:5000", 700, 1, 2_650_000, 2_650_000)] },
      { connection: 1, stream: 0, url: "https://www.p.test/", times: { arrivalUs: 2_510_000 }, paths: [entry(0, "10.10.0.2:5000", 1200, 2, 2_520_000, 2_530_500), entry(1, "10.10.1.2:5000", 300, 1, 2_525_000, 2_525_000)] },
      { connection: 1, stream: 4, url: "https://www.p.test/a.js", times: { arrivalUs: 2_540_000 }, paths: [entry(0, "10.10.0.2:5000", 500, 1, 2_541_000, 2_542_000), entry(2, "10.10.0.2:6000", 100, 1, 2_545_000, 2_546_000)] },
      { connection: 2, stream: 0, url: "https://www.p.test/mptcp.css", times: { arrivalUs: 2_560_000 }, paths: null },
      { connection: 1, stream: 12, url: "https://www.p.test/odd.png", times: { arrivalUs: 2_570_000 }, paths: [entry(3, "10.99.0.2:5000", 10, 1, 2_571_000, 2_571_000)] },
    ]);
    const requests = [request("https://www.p.test:443/", 0), request("https://www.p.test/a.js", 30), request("https://www.p.test/a.js#x", 90), request("https://www.p.test/mptcp.css", 50), request("https://www.p.test/odd.png", 60), request("https://www.p.test/never.js", 70)];
    const paths = withRequestPaths(requests, out, CLIENTS, startedAt).map((q) => q.paths);
    assert.deepEqual(paths, [
      [
        { path: 0, bytes: 1200, packets: 2, firstMs: 20, lastMs: 30.5 },
        { path: 1, bytes: 300, packets: 1, firstMs: 25, lastMs: 25 },
      ],
      // two server paths from one client address (a new port) are one network path
      [{ path: 0, bytes: 600, packets: 2, firstMs: 41, lastMs: 46 }],
      [{ path: 1, bytes: 700, packets: 1, firstMs: 150, lastMs: 150 }],
      null, // the server did not say (MPTCP)
      null, // a client address of no path
      null, // the server never logged it
    ]);
  });

  it("adds up the hops of a redirected request, as its graph node lists them", () => {
    const startedAt = "2025-01-01T00:00:00.000Z";
    const out = serverOut(Date.parse(startedAt), [
      { connection: 1, stream: 0, url: "https://www.p.test/old", times: { arrivalUs: 1000 }, paths: [entry(0, "10.10.0.2:5000", 60, 1, 2000, 2000)] },
      { connection: 1, stream: 4, url: "https://www.p.test/new", times: { arrivalUs: 5000 }, paths: [entry(0, "10.10.0.2:5000", 900, 1, 6000, 6000), entry(1, "10.10.1.2:5000", 900, 1, 6500, 7000)] },
    ]);
    const graph = { nodes: [{ id: "r1", resource: { url: "https://www.p.test/new", redirects: ["https://www.p.test/old"] } }] } as unknown as Graph;
    const [q] = withRequestPaths([{ ...request("https://www.p.test/old", 0), nodeId: "r1" }], out, CLIENTS, startedAt, redirectChain(graph));
    assert.deepEqual(q!.paths, [
      { path: 0, bytes: 960, packets: 2, firstMs: 2, lastMs: 6 },
      { path: 1, bytes: 900, packets: 1, firstMs: 6.5, lastMs: 7 },
    ]);
  });

  it("leaves paths null when the servers' logs have no clock to put them on the run's", () => {
    const out = serverOut(undefined, [{ connection: 1, stream: 0, url: "https://www.p.test/", times: { arrivalUs: 0 }, paths: [] }]);
    assert.deepEqual(withRequestPaths([request("https://www.p.test/", 0)], out, CLIENTS, "2025-01-01T00:00:00.000Z")[0]!.paths, null);
  });

  it("the validator rejects paths that name no path, repeat one, leave path order or end before they start", () => {
    const problems = (paths: unknown) => {
      const run = JSON.parse(readFileSync(TWO_PATHS, "utf8")) as RunResult;
      run.requests = [{ ...request("https://www.p.test/", 0), paths: paths as RequestRecord["paths"] }];
      return validateRunResult(run, "run.json");
    };
    const ok = { path: 0, bytes: 10, packets: 1, firstMs: 1, lastMs: 2 };
    assert.deepEqual(problems([ok, { ...ok, path: 1, packets: null }]), []);
    assert.deepEqual(problems(null), []);
    const cases: [unknown, RegExp][] = [
      [[{ ...ok, path: 2 }], /^run\.json: \/requests\/0\/paths\/0\/path: there is no path 2 \(the network has 2\)$/],
      [[ok, ok], /^run\.json: \/requests\/0\/paths\/1\/path: path 0 is listed twice$/],
      [[{ ...ok, path: 1 }, ok], /^run\.json: \/requests\/0\/paths\/1\/path: 0 comes after 1 \(entries are in path order\)$/],
      [[{ ...ok, firstMs: 5, lastMs: 4 }], /^run\.json: \/requests\/0\/paths\/0\/lastMs: 4 is before its firstMs 5$/],
      [[{ ...ok, bytes: -1 }], /^run\.json: \/requests\/0\/paths\/0\/bytes: must be >= 0, not -1$/],
      [[{ ...ok, packets: 1.5 }], /^run\.json: \/requests\/0\/paths\/0\/packets: must be integer/],
      [[{ path: 0, bytes: 10, firstMs: 1, lastMs: 2 }], /^run\.json: \/requests\/0\/paths\/0\/packets: is missing$/],
      [[{ ...ok, share: 0.5 }], /^run\.json: \/requests\/0\/paths\/0\/share: is not a field of the run result format/],
    ];
    for (const [paths, pattern] of cases) {
      const found = problems(paths);
      assert.ok(found.some((p) => pattern.test(p)), `expected a problem matching ${pattern}, got:\n${found.join("\n")}`);
    }
  });
});
