import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { childrenOf, processTreeCpuUs } from "@pagepath/bench";

/** A node process spinning until killed; with `child`, it first starts another that spins too. */
const spinner = (child: boolean) =>
  spawn(process.execPath, ["-e", `${child ? `require("node:child_process").spawn(process.execPath, ["-e", "for(;;);"], { stdio: "inherit" });` : ""} for(;;);`], { stdio: "inherit" });

describe("bench replay's CPU time of a server and its workers", () => {
  it("counts the CPU a process's children spend beside its own, from /proc", async () => {
    const alone = spinner(false);
    const parent = spinner(true);
    try {
      await sleep(1500);
      const [one, tree] = [processTreeCpuUs(alone.pid!), processTreeCpuUs(parent.pid!)];
      // Each spinner has had CPU time; the tree holds two spinning processes, so about twice one.
      assert.ok(one >= 100_000, `one spinner used ${one} µs`);
      assert.ok(tree >= 1.5 * one, `the tree of two spinners used ${tree} µs against ${one} µs for one`);
      assert.equal(processTreeCpuUs(2 ** 22 + 1), 0, "a process that does not exist counts nothing");
    } finally {
      for (const pid of childrenOf(parent.pid!)) process.kill(pid, "SIGKILL");
      alone.kill("SIGKILL");
      parent.kill("SIGKILL");
    }
  });
});
