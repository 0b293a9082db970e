/**
 * The topology's JSON Schema (formats/schema/topology.schema.json) and the link emulator's own
 * parser (`pagepath net check`) must say the same of every topology: generated ones (fast-check),
 * valid and not, with the few checks a schema cannot make (unique path names, a queue limit without
 * a rate or a BDP without a delay, RED's thresholds, a Gilbert-Elliott chain that never recovers)
 * the only answers allowed to differ.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, it } from "node:test";
import fc from "fast-check";
import { schemaProblems } from "@pagepath/formats";
import { QUEUE_DISCIPLINES, type NetworkConfig } from "@pagepath/results";
import { topologyDocument } from "@pagepath/runner";
import { tempDir } from "./fixture-profile.js";
import { NET } from "./net-topology.js";

const run = promisify(execFile);
/** What only the parser checks; when it says one of these, the schema may have passed the file. */
const BEYOND_SCHEMA = /a queue limit needs a rate|a limit in BDPs needs a rate or trace and a delay|minTh .* must be below maxTh|never leaves the bad state|names two paths/;

/** Mostly what a user would write, now and then something wrong, so that both answers come up. */
function mostly<T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>): fc.Arbitrary<T> {
  return fc.oneof({ weight: 30, arbitrary: good }, { weight: 1, arbitrary: bad as fc.Arbitrary<T> });
}
const ms = mostly(fc.double({ min: 0, max: 10_000, noNaN: true }), fc.constantFrom(-5, 20_000, "x"));
const probability = mostly(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(-0.1, 1.5));
const limit = fc.oneof(
  fc.record({ packets: mostly(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(0, 2e6)) }),
  fc.record({ bdp: mostly(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.constantFrom(0, 500)) }),
  fc.record({ bytes: mostly(fc.integer({ min: 1504, max: 1e9 }), fc.constant(100)) }),
);
const queue = fc.oneof(
  fc.constant({ type: "infinite" }),
  fc.tuple(fc.constantFrom("droptail", "drophead", "codel"), limit).map(([type, l]) => ({ type, ...l })),
  fc.tuple(limit, fc.record({ minTh: probability, maxTh: probability, gentle: fc.boolean() }, { requiredKeys: [] })).map(([l, red]) => ({ type: "red", ...l, ...red })),
  fc.constantFrom({ type: "pie", packets: 5 }, { type: "droptail" }, { type: "infinite", packets: 5 }, { type: "droptail", packets: 5, targetMs: 5 }, { type: "droptail", packets: 5, bdp: 1 }),
);
const loss = fc.oneof(
  probability,
  fc.record({ model: fc.constant("bernoulli"), rate: probability }),
  fc.record({ model: fc.constant("gilbert-elliott"), p: probability, r: probability, lossBad: probability }, { requiredKeys: ["model", "p", "r"] }),
  fc.constantFrom({ model: "pareto" }, { model: "bernoulli" }),
);
const direction = mostly(
  fc.record(
    {
      delayMs: fc.oneof({ weight: 5, arbitrary: ms }, { weight: 1, arbitrary: fc.tuple(ms, ms).map(([a, b]) => ({ uniform: [Math.min(a, b), Math.max(a, b)] })) }),
      rateMbit: mostly(fc.double({ min: 0.001, max: 100_000, noNaN: true }), fc.constantFrom(0, 1e6)),
      loss,
      queue,
      jitterMs: ms,
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom({ colour: "red" }, { delayMs: { uniform: [5] } }, "fast"),
);
const topology = fc.record(
  {
    schemaVersion: mostly(fc.constant(1), fc.constant(2)),
    seed: mostly(fc.nat(), fc.constant(-1)),
    mptcp: fc.boolean(),
    paths: fc.array(
      fc.record({ name: mostly(fc.constantFrom("wifi", "lte_1", "a-b"), fc.constantFrom("", "has space", "x".repeat(17))), backup: mostly(fc.constant(false), fc.constant(true)), uplink: direction, downlink: direction }, { requiredKeys: [] }),
      { minLength: 1, maxLength: 3 },
    ),
  },
  { requiredKeys: ["schemaVersion", "paths"] },
);

describe("topology schema and the link emulator's parser", () => {
  it("agree on generated topologies, valid and invalid", async () => {
    const dir = tempDir("topology-schema");
    const samples = fc.sample(topology, { numRuns: 300, seed: 24 });
    const files = samples.map((t, i) => {
      const file = join(dir, `t${i}.topology.json`);
      writeFileSync(file, JSON.stringify(t));
      return file;
    });
    const r = await run(NET, ["check", ...files], { maxBuffer: 1 << 24 }).catch((e) => e);
    const said = new Map((r.stdout as string).split("\n").filter(Boolean).map((l) => [l.split(" ")[1]!.replace(/:$/, ""), l]));
    let valid = 0;
    const disagreements: string[] = [];
    samples.forEach((t, i) => {
      const parser = said.get(files[i]!);
      assert.ok(parser, `net check said nothing of ${files[i]}`);
      const parserOk = parser.startsWith("ok ");
      const schema = schemaProblems(t, "topology.schema.json", "the topology format");
      if (parserOk) valid++;
      if (parserOk === !schema) return;
      if (!parserOk && !schema && BEYOND_SCHEMA.test(parser)) return;
      disagreements.push(`${JSON.stringify(t)}\n  parser: ${parser}\n  schema: ${schema?.join("; ") ?? "ok"}`);
    });
    assert.deepEqual(disagreements.slice(0, 5), [], `${disagreements.length} of ${samples.length} disagree`);
    // Both answers must occur, or the test compares nothing.
    assert.ok(valid >= 20 && valid <= samples.length - 20, `${valid} of ${samples.length} generated topologies valid`);
  });

  it("pass both for every network the runner writes a topology of (plans, accuracy, replay flags)", async () => {
    const dir = tempDir("topology-writer");
    const trace = join(dir, "link.trace");
    writeFileSync(trace, "1\n2\n3\n");
    const rate = fc.oneof(fc.constant(null), fc.double({ min: 0.01, max: 10_000, noNaN: true }));
    const path = fc.record({
      upMbps: rate,
      downMbps: rate,
      rttMs: fc.double({ min: 0, max: 2_000, noNaN: true }),
      loss: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true })),
      queue: fc.oneof(fc.constant(null), fc.record({ discipline: fc.constantFrom(...QUEUE_DISCIPLINES), packets: fc.integer({ min: 1, max: 100_000 }) })),
      trace: fc.oneof(fc.constant(undefined), fc.constant({ uplink: "link.trace", downlink: "link.trace" })),
      backup: fc.oneof(fc.constant(undefined), fc.boolean()),
      rttJitter: fc.oneof(fc.constant(undefined), fc.double({ min: 0, max: 0.5, noNaN: true })),
    }, { requiredKeys: ["upMbps", "downMbps", "rttMs", "loss", "queue"] });
    // A network needs one path that is not a backup, and a queue limit needs a rate or a trace.
    const usable = (n: NetworkConfig) => n.paths.some((p) => !p.backup) && n.paths.every((p) => !p.queue || p.trace || (p.upMbps !== null && p.downMbps !== null));
    const networks = fc.sample(fc.record({ name: fc.constant("n"), paths: fc.array(path, { minLength: 1, maxLength: 3 }) }).filter(usable), { numRuns: 200, seed: 21 });
    const files = networks.map((n, i) => {
      const file = join(dir, `w${i}.topology.json`);
      writeFileSync(file, JSON.stringify(topologyDocument(n as NetworkConfig, dir)));
      return file;
    });
    const problems = networks.flatMap((n, i) => (schemaProblems(topologyDocument(n as NetworkConfig, dir), "topology.schema.json", "the topology format") ?? []).map((p) => `${files[i]}: ${p}`));
    assert.deepEqual(problems.slice(0, 5), [], `${problems.length} schema problems`);
    const r = await run(NET, ["check", ...files], { maxBuffer: 1 << 24 }).catch((e) => e);
    const refused = (r.stdout as string).split("\n").filter((l) => l !== "" && !l.startsWith("ok "));
    assert.deepEqual(refused.slice(0, 5), [], `${refused.length} of ${files.length} refused by the link emulator`);
  });
});
