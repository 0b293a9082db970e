import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { bootstrapDifference } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

describe("bootstrapDifference", () => {
  it("brackets a known shift, is the same for the same seed, and has nothing to say about an empty side", () => {
    const base = Array.from({ length: 60 }, (_, i) => 100 + (i % 10));
    const shifted = base.map((x) => x - 20);
    const d = bootstrapDifference(base, shifted)!;
    assert.equal(d.estimate, -20);
    assert.ok(d.low <= -20 && -20 <= d.high && d.high < 0, JSON.stringify(d));
    assert.deepEqual(bootstrapDifference(base, shifted), d, "seeded");
    const same = bootstrapDifference(base, [...base].reverse())!;
    assert.ok(same.low < 0 && same.high > 0, `no difference: ${JSON.stringify(same)}`);
    assert.equal(bootstrapDifference([], shifted), null);
  });
});

/** Seed 004 §6.2.2 rerun in miniature on the real stacks: the plan, the runs and the report's shape. */
describe("reproduce sa-ecf-web", () => {
  const work = tempDir("sa-ecf-web");
  after(() => process.env.KEEP ? undefined : rmSync(work, { recursive: true, force: true }));

  /** The report's rows: every scheduler and class, with path shares that add up; each class's mean completion, ms. */
  const rows = (report: string): Map<string, number> => {
    const means = new Map<string, number>();
    for (const scheduler of ["LowRTT", "SA-ECF", "adapted SA-ECF"]) {
      for (const c of ["C", "A1", "A2", "B1", "B2"]) {
        const row = new RegExp(`\\| ${scheduler} \\| ${c} \\| [^|]+ \\| \\d+ \\| (\\d+) ms \\| (\\d+) ms \\|[^|]*\\| [\\d.]+ Mbit/s \\| ([\\d.]+)% / ([\\d.]+)% \\|`).exec(report);
        assert.ok(row, `a row for ${scheduler} ${c}:\n${report}`);
        assert.ok(Math.abs(Number(row[3]) + Number(row[4]) - 100) < 0.2, `path shares of ${scheduler} ${c} add up: ${row[0]}`);
        means.set(`${scheduler} ${c}`, Number(row[2]));
      }
    }
    return means;
  };

  it("fetches Table 6.8's five files over two paths with each scheduler in turn and reports per class, with a verdict per claim", async () => {
    const out = join(work, "report");
    const r = await runCli(["reproduce", "--only", "sa-ecf-web", "--runs", "2", "--work", work, "--out", out], 300_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = readFileSync(join(out, "sa-ecf-web", "README.md"), "utf8");
    assert.match(report, /ok runs: LowRTT 2, SA-ECF 2, adapted SA-ECF 2\./);
    assert.equal(report.match(/\| (holds|no significant difference|does not hold) \|/g)?.length, 3, report);
    rows(report);
    for (const svg of ["streams-cdf.svg", "page-cdf.svg"]) assert.match(readFileSync(join(out, "sa-ecf-web", svg), "utf8"), /<svg[^]*<path d="M/);
  });

  it("runs in virtual time with --client simulated: pagepath-sim fetches the five files as pagepath-fetch does, no faster than the two paths carry them", async () => {
    const out = join(work, "simulated");
    const r = await runCli(["reproduce", "--only", "sa-ecf-web", "--client", "simulated", "--runs", "2", "--work", join(work, "sim"), "--out", out], 120_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = readFileSync(join(out, "sa-ecf-web", "README.md"), "utf8");
    assert.match(report, /in virtual time \(pagepath-sim's fetch mode/);
    assert.match(report, /ok runs: LowRTT 2, SA-ECF 2, adapted SA-ECF 2\./);
    assert.equal(report.match(/\| (holds|no significant difference|does not hold) \|/g)?.length, 3, report);
    // 3.8 MB cannot arrive faster than 50 + 10 Mbit/s carry it, nor 60 kB sooner than a round trip of the fast path.
    for (const [key, ms] of rows(report)) {
      if (key.endsWith(" B2")) assert.ok(ms >= (3_800_000 * 8) / 60_000, `${key}: ${ms} ms`);
      assert.ok(ms >= 10, `${key}: ${ms} ms`);
    }
  });
});
