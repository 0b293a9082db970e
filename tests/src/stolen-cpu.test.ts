import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "./fixture-profile.js";
import { unlessCpuStolen } from "./stolen-cpu.js";

describe("a timing test measured again when the hypervisor stole the CPU", () => {
  const stat = join(tempDir("stolen-cpu"), "stat");
  // Each attempt advances the machine's clock by 1,000 ticks, `steal` of them stolen.
  let total = 0;
  let stolen = 0;
  const tick = (steal: number) => {
    total += 1000;
    stolen += steal;
    writeFileSync(stat, `cpu  ${total - stolen} 0 0 0 0 0 0 ${stolen} 0 0\n`);
  };
  const context = () => {
    const said = { skipped: null as string | null, diagnostics: [] as string[] };
    return { said, t: { skip: (m?: string) => void (said.skipped = m ?? ""), diagnostic: (m: string) => void said.diagnostics.push(m) } };
  };
  const failing = (steals: number[]) => {
    let n = 0;
    return async () => {
      tick(steals[n++]!);
      throw new Error("goodput 35 Mbit/s");
    };
  };

  it("fails at once when an attempt fails on an undisturbed CPU", async () => {
    tick(0);
    const { t, said } = context();
    let runs = 0;
    const attempt = failing([30]);
    await assert.rejects(unlessCpuStolen(t, async () => (runs++, attempt()), { statFile: stat }), /goodput 35/);
    assert.equal(runs, 1);
    assert.equal(said.skipped, null);
  });

  it("measures again after a disturbed failure, and passes when a later attempt passes", async () => {
    tick(0);
    const { t, said } = context();
    let runs = 0;
    await unlessCpuStolen(t, async () => {
      runs++;
      tick(runs === 1 ? 250 : 0);
      if (runs === 1) throw new Error("window 3: 90000 bytes");
    }, { statFile: stat });
    assert.equal(runs, 2);
    assert.equal(said.skipped, null);
    assert.match(said.diagnostics[0]!, /attempt 1: 25\.0% of the CPU stolen, and window 3/);
  });

  it("fails when a disturbed failure is followed by an undisturbed one", async () => {
    tick(0);
    const { t } = context();
    await assert.rejects(unlessCpuStolen(t, failing([300, 20]), { statFile: stat }), /goodput 35/);
  });

  it("skips, naming every attempt's steal and failure, only when every attempt was disturbed", async () => {
    tick(0);
    const { t, said } = context();
    await unlessCpuStolen(t, failing([200, 300, 400]), { statFile: stat });
    assert.match(said.skipped!, /^not measured: .*attempt 1: 20\.0%.*attempt 2: 30\.0%.*attempt 3: 40\.0% of the CPU stolen, and goodput 35/);
  });

  it("fails rather than skips when steal cannot be read", async () => {
    const { t, said } = context();
    await assert.rejects(unlessCpuStolen(t, failing([0]), { statFile: join(tempDir("stolen-cpu"), "absent") }), /goodput 35/);
    assert.equal(said.skipped, null);
  });
});
