import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { h2Get, readJsonLines, startReplay, synthetic } from "./replay-harness.js";

const ORIGIN = "https://www.delays.test";

describe("processing delays missing from a recording are drawn from the corpus (seed 001 §3.4.1)", () => {
  // A "corpus" of one recording whose style sheets took 40-60 ms and scripts 200 ms to process.
  const corpusRecording = synthetic(ORIGIN, [
    { path: "/a.css", mimeType: "text/css", bytes: 100, delayMs: 40 },
    { path: "/b.css", mimeType: "text/css", bytes: 100, delayMs: 60 },
    { path: "/c.js", mimeType: "application/javascript", bytes: 100, delayMs: 200 },
  ]);
  const page = synthetic(ORIGIN, [
    { path: "/measured.css", mimeType: "text/css", bytes: 100, delayMs: 5 },
    { path: "/unmeasured.css", mimeType: "text/css; charset=utf-8", bytes: 100, delayMs: null },
  ]);

  async function delays(seed: string, address: string): Promise<Record<string, number>> {
    const replay = await startReplay(page, ["--delay-samples", dirname(corpusRecording), "--seed", seed, "--first-address", address]);
    try {
      await h2Get(address, "www.delays.test", ["/measured.css", "/unmeasured.css"]);
    } finally {
      assert.equal(await replay.stop(), 0);
    }
    const used = JSON.parse(readFileSync(join(replay.out, "delay-samples.json"), "utf8"));
    assert.deepEqual(used.samples["GET css"].sort((a: number, b: number) => a - b), [5, 40, 60], "the page's own and the corpus's samples, kept beside the logs");
    return Object.fromEntries(readJsonLines(join(replay.out, "streams.jsonl")).map((s) => [s.url.replace(ORIGIN, ""), s.delayUs]));
  }

  it("keeps a recorded delay, draws a missing one from its MIME class, the same for the same seed", async () => {
    const first = await delays("7", "127.0.8.1");
    assert.equal(first["/measured.css"], 5000);
    const drawn = first["/unmeasured.css"]!;
    assert.ok(drawn >= 5000 && drawn <= 60_000, `a style sheet's delay is drawn among style sheets' (5-60 ms), got ${drawn} µs`);
    const again = await delays("7", "127.0.8.2");
    assert.equal(again["/unmeasured.css"], drawn, "same seed, same draw");
    const seeds = await Promise.all(["1", "2", "3"].map((seed, i) => delays(seed, `127.0.8.${3 + i}`)));
    assert.ok(new Set([drawn, ...seeds.map((d) => d["/unmeasured.css"])]).size > 1, "other seeds draw other delays");
  });
});
