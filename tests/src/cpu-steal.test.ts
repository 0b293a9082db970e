import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cpuTimes, stolenShare } from "@pagepath/bench";
import { tempDir } from "./fixture-profile.js";

describe("the CPU time the hypervisor stole while a bench ran", () => {
  const dir = tempDir("cpu-steal");
  const stat = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it("reads all ticks and the stolen ones from /proc/stat's first line, and their share between two readings", () => {
    const before = cpuTimes(stat("before", "cpu  100 0 50 800 10 0 20 20 0 0\ncpu0 50 0 25 400 5 0 10 10 0 0\n"));
    const after = cpuTimes(stat("after", "cpu  300 0 150 1200 10 0 60 80 0 0\n"));
    assert.deepEqual(before, [1000, 20]);
    assert.deepEqual(after, [1800, 80]);
    assert.equal(stolenShare(before, after), 60 / 800);
  });

  it("says unknown rather than a number for a missing or garbled file, or readings with no time between them", () => {
    assert.equal(cpuTimes(join(dir, "absent")), null);
    assert.equal(cpuTimes(stat("short", "cpu 1 2 3\n")), null);
    assert.equal(cpuTimes(stat("words", "cpu a b c d e f g h\n")), null);
    const same = cpuTimes(stat("same", "cpu 1 1 1 1 1 1 1 1 0 0\n"));
    assert.equal(stolenShare(same, same), null);
    assert.equal(stolenShare(null, same), null);
  });

  it("reads this machine's, stolen never more than all", () => {
    const times = cpuTimes();
    assert.ok(times, "/proc/stat unreadable");
    assert.ok(times[1] >= 0 && times[1] <= times[0], `${times}`);
  });
});
