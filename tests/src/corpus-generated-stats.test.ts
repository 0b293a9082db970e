import assert from "node:assert/strict";
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { MeasureSummary, ThesisValue } from "@pagepath/corpus";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

const SITES = 60;
const ARTIFACTS = join(process.cwd(), "test-artifacts", "corpus-stats-generated");

describe("the generator's default parameters, profiled in Chromium", () => {
  const work = tempDir("generated-stats");
  after(() => rmSync(work, { recursive: true, force: true }));

  it(`reproduce the thesis's medians within 20% over ${SITES} sites: resources per page, resource size, domains per site`, async () => {
    const data = join(work, "data");
    const build = await runCli(["corpus", "build", "--data", data, "--kind", "generated", "--generated", String(SITES)], 60 * 60_000);
    const failures = build.stdout.split("\n").filter((l) => /^\s+failed /.test(l));
    assert.equal(build.code, 0, `${failures.join("\n")}\n${build.stderr.slice(-2000)}`);
    assert.match(build.stdout, new RegExp(`${SITES} built, 0 already there, 0 failed`));

    const out = join(work, "stats");
    const stats = await runCli(["corpus", "stats", join(data, "recordings"), "-o", out], 30 * 60_000);
    assert.equal(stats.code, 0, stats.stdout + stats.stderr);
    cpSync(out, ARTIFACTS, { recursive: true });
    const report = JSON.parse(readFileSync(join(out, "stats.json"), "utf8")) as { summary: { sites: number; measures: MeasureSummary[] }; thesis: ThesisValue[] };
    assert.equal(report.summary.sites, SITES, "every generated site was measured");
    for (const id of ["resource-count", "resource-size", "domains"] as const) {
      const thesis = report.thesis.find((t) => t.measure === id && t.series === "all" && t.statistic === "median")!.value;
      const median = report.summary.measures.find((m) => m.id === id)!.series.find((s) => s.name === "all")!.stats!.median;
      const off = Math.abs(median - thesis) / thesis;
      console.log(`${id}: median ${median} over ${SITES} profiled sites, thesis ${thesis} (${(off * 100).toFixed(1)}% off)`);
      assert.ok(off <= 0.2, `${id}: median ${median} is ${(off * 100).toFixed(0)}% from the thesis's ${thesis}`);
    }
  });
});
