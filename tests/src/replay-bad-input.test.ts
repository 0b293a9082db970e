import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { tempDir } from "./fixture-profile.js";
import { REPLAY_SERVER, ReplayServerExited } from "@pagepath/runner";
import { h2Get, startReplay, synthetic } from "./replay-harness.js";

const run = promisify(execFile);
const ORIGIN = "https://www.bad.test";
const good = () =>
  synthetic(ORIGIN, [
    { path: "/index.html", mimeType: "text/html", bytes: 2000, delayMs: 1 },
    { path: "/search?q=cats&page=1", mimeType: "application/json", bytes: 300, delayMs: 1 },
  ]);

/** Runs the server expecting it to refuse to start; returns its exit code and message. */
async function refused(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await run(REPLAY_SERVER, ["serve", ...args, "--out", join(tempDir("bad-out"), "out"), "--first-address", "127.0.6.1"]);
  } catch (e: any) {
    return { code: e.code, stderr: e.stderr };
  }
  assert.fail(`pagepath-server serve ${args.join(" ")} started`);
}

describe("the replay server refuses bad input with a clear error", () => {
  it("a corrupt archive: the file and what is wrong", async () => {
    const rec = good();
    writeFileSync(join(rec, "archive.json"), '[{"url": "https://www.bad.test/", ');
    const r = await refused([rec]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /archive\.json/);
    assert.match(r.stderr, /JSON/);
  });

  it("an incomplete recording: no archive, or a body missing or damaged", async () => {
    const noArchive = good();
    rmSync(join(noArchive, "archive.json"));
    assert.match((await refused([noArchive])).stderr, /no archive\.json/);

    const rec = good();
    const sha = JSON.parse(readFileSync(join(rec, "archive.json"), "utf8"))[0].body.sha256;
    rmSync(join(rec, "bodies", sha));
    assert.match((await refused([rec])).stderr, new RegExp(`bodies/${sha}.*cannot be read`));

    const damaged = good();
    const sha2 = JSON.parse(readFileSync(join(damaged, "archive.json"), "utf8"))[0].body.sha256;
    writeFileSync(join(damaged, "bodies", sha2), Buffer.alloc(2000, 0));
    assert.match((await refused([damaged])).stderr, /corrupt: its SHA-256 is/);
  });

  it("an origin whose port is taken: names the origin and the address", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((ok) => blocker.listen(443, "127.0.6.1", ok));
    try {
      const r = await refused([good()]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /https:\/\/www\.bad\.test: cannot listen on TCP 127\.0\.6\.1:443: the port is already in use/);
    } finally {
      blocker.close();
    }
  });

  it("an unknown protocol, transport or combination", async () => {
    const rec = good();
    assert.match((await refused([rec, "--protocol", "spdy"])).stderr, /--protocol: unknown protocol "spdy"; choose h1, h1-clear, h2 or h3/);
    // The old spelling still works for a release, and says the new one.
    const old = await refused([rec, "--protocol", "http1", "--transport", "quic"]);
    assert.match(old.stderr, /--protocol http1 is now spelled h1; the old spelling works until the next release/);
    assert.match(old.stderr, /--protocol h1 cannot run over --transport quic/);
    assert.match((await refused([rec, "--transport", "sctp"])).stderr, /--transport: unknown transport "sctp"/);
    assert.match((await refused([rec, "--protocol", "h2", "--transport", "quic"])).stderr, /--protocol h2 cannot run over --transport quic/);
    assert.match((await refused([rec, "--protocol", "h3", "--transport", "mptcp"])).stderr, /--protocol h3 cannot run over --transport mptcp/);
  });

  it("a request for something never recorded gets 404 and is in the fidelity report; a near miss is fuzzy-matched", async () => {
    const replay = await startReplay(good(), ["--protocol", "h2", "--first-address", "127.0.6.2"]);
    try {
      const statuses = await h2Get("127.0.6.2", "www.bad.test", ["/index.html", "/search?q=cats&page=2", "/never-recorded.js"]);
      assert.deepEqual(statuses, [200, 200, 404]);
    } finally {
      assert.equal(await replay.stop(), 0);
    }
    const f = JSON.parse(readFileSync(join(replay.out, "fidelity.json"), "utf8"));
    assert.equal(f.requests, 3);
    assert.equal(f.exact, 1);
    assert.equal(f.fuzzy, 1);
    assert.equal(f.unmatched, 1);
    assert.deepEqual(f.unmatchedRequests, [{ method: "GET", url: `${ORIGIN}/never-recorded.js` }]);
    assert.equal(f.fuzzyMatches[0].servedUrl, `${ORIGIN}/search?q=cats&page=1`);
  });

  it("startReplay reports a server that exits before it is ready", async () => {
    await assert.rejects(startReplay(join(tempDir("nothing"), "missing"), []), (e: unknown) => e instanceof ReplayServerExited && e.code === 2);
  });
});
