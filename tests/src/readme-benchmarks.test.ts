/**
 * README.md's "Benchmarks" section describes every benchmark `pagepath bench` has, and no other:
 * the CLI's list is read from its help and from what it accepts, the README's from its text.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "./cli-run.js";

const readme = () => readFileSync(join(process.cwd(), "README.md"), "utf8");

function readmeSection(title: string): string {
  const text = readme();
  const start = text.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README.md has no "## ${title}" section`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe("README.md's benchmarks are the CLI's", () => {
  it("each benchmark pagepath bench runs is described in the README's Benchmarks section, and only those, and every list of them is whole", async () => {
    const help = await runCli(["bench", "--help"]);
    const listed = /usage: pagepath bench ([a-z|-]+) /.exec(help.stdout)?.[1]?.split("|");
    assert.ok(listed && listed.length > 1, `no list of benchmarks in pagepath bench --help:\n${help.stdout}`);
    const refused = await runCli(["bench", "no-such-benchmark"]);
    const accepted = /expected: ([a-z, -]+)\n/.exec(refused.stderr)?.[1]?.split(/, | or /);
    assert.deepEqual(accepted, listed, "the benchmarks bench accepts are the ones its help lists");
    const section = readmeSection("Benchmarks");
    const described = [...new Set([...section.matchAll(/`\.\/pagepath bench ([a-z-]+)/g)].map((m) => m[1]!))];
    assert.deepEqual([...described].sort(), [...listed].sort(), `README.md describes ${described.join(", ")}; pagepath bench has ${listed.join(", ")}`);
    // In a table row the bars are escaped (\|), as a bare one would end the cell.
    for (const [, names] of readme().matchAll(/pagepath bench ([a-z-]+(?:\\?\|[a-z-]+)+)/g)) {
      assert.deepEqual(names!.split(/\\?\|/).sort(), [...listed].sort(), `README.md lists the benchmarks as ${names}`);
    }
  });
});
