import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StopCondition } from "../src/stop-condition.js";

describe("when to stop recording", () => {
  const policy = { quietMs: 1000, capMs: 10_000 };

  it("waits for load, then for the network to be idle for the quiet period", () => {
    const s = new StopCondition(policy, 0);
    s.requestStarted("doc", 0);
    assert.deepEqual(s.decide(500), { stop: false, wakeAt: 10_000 });
    s.requestEnded("doc", 600);
    assert.equal(s.decide(5000).stop, false, "no load yet");
    s.loadFired(5000);
    assert.deepEqual(s.decide(5500), { stop: false, wakeAt: 6000 });
    assert.deepEqual(s.decide(6000), { stop: true, by: "quiet" });
  });

  it("restarts the quiet period when a late download starts after load", () => {
    const s = new StopCondition(policy, 0);
    s.loadFired(100);
    s.requestStarted("late", 900);
    assert.equal(s.decide(1500).stop, false, "something in flight");
    s.requestEnded("late", 1600);
    assert.deepEqual(s.decide(2000), { stop: false, wakeAt: 2600 });
    assert.deepEqual(s.decide(2600), { stop: true, by: "quiet" });
  });

  it("stops at the cap whatever happens", () => {
    const s = new StopCondition(policy, 0);
    s.requestStarted("hang", 10);
    assert.deepEqual(s.decide(10_000), { stop: true, by: "cap" });
    assert.equal(s.loaded, false);
    assert.equal(s.pending, 1);
  });
});
