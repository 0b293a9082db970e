import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "@pagepath/temp-dirs";
import { readRecording, writeRecording } from "../src/recording-store.js";
import { RECORDING_SCHEMA_VERSION, type Recording } from "../src/recording.js";

function tiny(): Recording {
  const body = Buffer.from("<p>hi</p>");
  const sha = "7b5dbbc7a43f75e6f6a8e9d7e4d2dd4f1b1b7a4ad9d9f9f1f6c6a4b2d3e4f5a6";
  return {
    manifest: {
      schemaVersion: RECORDING_SCHEMA_VERSION, kind: "pagepath-recording", tool: { name: "pagepath", version: "t" },
      url: "https://a.test/", finalUrl: "https://a.test/", status: "complete", reason: null, startedAt: "", durationMs: 1,
      browser: { product: "", userAgent: "", executablePath: "" }, conditions: { cpuThrottlingRate: 1, network: null, device: null },
      stopPolicy: { quietMs: 1, capMs: 2 }, stoppedBy: "quiet", redaction: { enabled: true, headers: [] }, traceCategories: [],
      files: { events: true, trace: true, archive: true },
      lifecycle: { navigationStartMonotonic: 1, navigationStartWallTime: 1, domContentLoaded: 1, load: 2, firstPaint: null, firstContentfulPaint: null, largestContentfulPaint: null, frames: [] },
      frameTree: null, counts: { events: 1, traceEvents: 1, requests: 1, bodies: 1, failedRequests: 0 },
    },
    events: [{ method: "Network.requestWillBeSent", params: { requestId: "1" } }],
    trace: [{ name: "ParseHTML" }],
    archive: [{
      id: "1", requestId: "1", url: "https://a.test/", method: "GET", frameId: "F", loaderId: "L", resourceType: "Document",
      initiator: { type: "other", url: null, lineNumber: null, stackFunctions: [] }, priority: { initial: "VeryHigh", final: "VeryHigh" },
      requestHeaders: {}, postData: null, times: { start: 1, response: 1.01, end: 1.02, wallTime: 1 }, response: null, fromCache: null,
      redirectedTo: null, sizes: { encodedDataLength: 100, bodySize: body.length }, body: { sha256: sha, size: body.length, base64Encoded: false },
      bodyMissing: null, failure: null, serverDelay: { ms: null, method: "not-measurable", rttMs: null },
    }],
    bodies: new Map([[sha, body]]),
  };
}

describe("recording directories", () => {
  const root = tempDir("store");

  it("round-trip", () => {
    const dir = join(root, "ok");
    writeRecording(dir, tiny());
    const r = readRecording(dir);
    assert.equal(r.manifest.url, "https://a.test/");
    assert.equal(r.events.length, 1);
    assert.equal(r.trace!.length, 1);
  });

  it("name the file and the line of a corrupt event log", () => {
    const dir = join(root, "badevents");
    writeRecording(dir, tiny());
    writeFileSync(join(dir, "events.jsonl"), '{"method":"a","params":{}}\n{"method": "b", "par\n');
    assert.throws(() => readRecording(dir), new RegExp(`${dir}/events.jsonl:2: not valid JSON`));
  });

  it("name a truncated archive, a missing body, a missing trace and a future schema", () => {
    const dir = join(root, "broken");
    writeRecording(dir, tiny());
    const archive = readFileSync(join(dir, "archive.json"), "utf8");
    writeFileSync(join(dir, "archive.json"), archive.slice(0, archive.length / 2));
    assert.throws(() => readRecording(dir), /archive\.json: not valid JSON .*truncated or corrupt/);
    writeFileSync(join(dir, "archive.json"), archive);
    rmSync(join(dir, "bodies"), { recursive: true });
    assert.throws(() => readRecording(dir), /bodies\/7b5d.*body of entry 0 \(https:\/\/a\.test\/\) is missing/);
    writeRecording(dir, tiny());
    rmSync(join(dir, "trace.json"));
    assert.throws(() => readRecording(dir), /trace\.json: missing, though the manifest lists it/);
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ ...m, schemaVersion: 99 }));
    assert.throws(() => readRecording(dir), /manifest\.json: schemaVersion 99 is not supported/);
  });

  it("name each field of the manifest and the archive that breaks the recording schema, with its JSON pointer", () => {
    const dir = join(root, "misshapen");
    writeRecording(dir, tiny());
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ ...m, status: "done", counts: { ...m.counts, events: -1 }, colour: "red" }));
    assert.throws(() => readRecording(dir), (e: Error) => {
      assert.match(e.message, /manifest\.json: \/status: must be one of complete, incomplete, not "done"/);
      assert.match(e.message, /manifest\.json: \/counts\/events: must be >= 0/);
      assert.match(e.message, /manifest\.json: \/colour: is not a field of the recording format/);
      return true;
    });
    writeRecording(dir, tiny());
    const archive = JSON.parse(readFileSync(join(dir, "archive.json"), "utf8"));
    archive[0].times.start = "soon";
    delete archive[0].serverDelay;
    writeFileSync(join(dir, "archive.json"), JSON.stringify(archive));
    assert.throws(() => readRecording(dir), (e: Error) => {
      assert.match(e.message, /archive\.json: \/0\/times\/start: must be number, not "soon"/);
      assert.match(e.message, /archive\.json: \/0\/serverDelay: is missing/);
      return true;
    });
  });

  it("are never left half-written: a failed write leaves the previous recording whole", () => {
    const dir = join(root, "atomic");
    writeRecording(dir, tiny());
    const changed = tiny();
    (changed.manifest as { url: string }).url = "https://changed.test/";
    changed.bodies.set("no/such/dir/x", Buffer.from("x")); // cannot be written: the write fails midway
    assert.throws(() => writeRecording(dir, changed));
    assert.ok(!existsSync(`${dir}.partial`), "the partial copy is removed");
    assert.equal(readRecording(dir).manifest.url, "https://a.test/");
  });
});
