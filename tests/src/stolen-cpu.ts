import type { TestContext } from "node:test";
import { cpuTimes, stolenShare } from "@pagepath/bench";

/**
 * Above this share of CPU time taken by the hypervisor during an attempt, a timing measurement
 * says more about the host than about pagepath. Measured on this VM: a 40 Mbit/s download through
 * the link emulator kept 99-100% of the rate at 0-7% steal and fell to 92% at 20-30% steal, with
 * the emulator's own write lateness (p90) going from 0.1 ms to 2 ms.
 */
const STOLEN_LIMIT = 0.1;

/**
 * Runs a timing measurement and its assertions, again when they fail while the hypervisor stole
 * more than STOLEN_LIMIT of the CPU. A failure on an undisturbed attempt fails the test at once,
 * so a wrong model still fails; only when every attempt was both wrong and disturbed is the test
 * skipped, saying what was stolen and what failed, because nothing was measured then.
 */
export async function unlessCpuStolen(
  t: Pick<TestContext, "skip" | "diagnostic">,
  attempt: () => Promise<void>,
  { attempts = 3, statFile }: { attempts?: number; statFile?: string } = {},
): Promise<void> {
  const disturbed: string[] = [];
  for (let i = 1; i <= attempts; i++) {
    const before = cpuTimes(statFile);
    try {
      await attempt();
      return;
    } catch (e) {
      const stolen = stolenShare(before, cpuTimes(statFile));
      if (stolen === null || stolen <= STOLEN_LIMIT) throw e;
      disturbed.push(`attempt ${i}: ${(stolen * 100).toFixed(1)}% of the CPU stolen, and ${(e as Error).message}`);
      t.diagnostic(disturbed.at(-1)!);
    }
  }
  t.skip(`not measured: the hypervisor stole the CPU in every attempt (${disturbed.join("; ")})`);
}
