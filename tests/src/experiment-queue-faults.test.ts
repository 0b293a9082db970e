/**
 * Queue mode when things go wrong around the collector (`pagepath experiment --redis`): Redis
 * restarted mid-collection, a second collector of the same plan, a collector that crashed. The
 * runs are made up by a stand-in worker, so no root is needed; the collector is the real CLI.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "bullmq";
import { cellId, cellOf, readExperiment, readPlanFile, runsFileFor, type RunResult } from "@pagepath/results";
import { collectorLockKey, experimentJobPrefix, fileSha256, openRunQueue, QUEUE_NAME, type CellJob } from "@pagepath/runner";
import { CLI, runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { startRedis, type Redis } from "./private-redis.js";
import { network, samplePlan, sampleRun } from "./results-fixture.js";

const SITE = "rules-thesis-example";
let dir = "";
let redis: Redis | undefined;
const children: ChildProcess[] = [];
const workers: Worker[] = [];

/** TEST INPUT: a plan of `runs` cells on one small site; the stand-in worker makes up their results. */
function writePlan(name: string, runs: number): { source: string; out: string; planFile: string; runsFile: string } {
  const source = join(dir, `${name}.plan.json`);
  const plan = samplePlan(name, { sites: [{ name: SITE, graph: `data/graphs/${SITE}.json` }], networks: [network(10, 20)], protocols: ["h2"], runs, connectionsPerOrigin: { h2: 1 } });
  writeFileSync(source, JSON.stringify(plan, null, 2));
  const out = join(dir, name);
  const planFile = join(out, `${name}.plan.json`);
  return { source, out, planFile, runsFile: runsFileFor(planFile) };
}

/** A worker that takes `ms` per cell and returns a made-up result that fits the resolved plan. */
function standInWorker(ms: number): Worker<CellJob, RunResult> {
  const worker = new Worker<CellJob, RunResult>(
    QUEUE_NAME,
    async (job) => {
      await sleep(ms);
      const plan = readPlanFile(job.data.planFile);
      return { ...sampleRun(plan, job.data.cell, 50 + job.data.cell.run), startedAt: new Date().toISOString() };
    },
    { connection: { host: "127.0.0.1", port: redis!.port } },
  );
  // A job Redis lost while it ran cannot be finished: BullMQ says so here, and the collector queues it again.
  worker.on("error", () => undefined);
  workers.push(worker);
  return worker;
}

/** The collector as a user starts it, kept so that it can be killed. */
function collector(source: string, out: string): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, "experiment", source, "--redis", redis!.url, "--out", out], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stdout!.on("data", () => undefined);
  child.stderr!.on("data", (d) => (stderr += d));
  return { child, stderr: () => stderr, exited: new Promise((ok) => child.on("close", (code) => ok(code))) };
}

async function until(what: string, done: () => boolean | Promise<boolean>, ms: number, output = () => ""): Promise<void> {
  for (const end = Date.now() + ms; !(await done()); await sleep(100)) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms\n${output()}`);
  }
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

/** Every line valid, and exactly one per cell of the plan. */
function assertOneLinePerCell(planFile: string, runs: number): void {
  const read = readExperiment(planFile);
  assert.deepEqual(read.warnings, []);
  const ids = read.runs.map((r) => cellId(cellOf(r)));
  assert.equal(ids.length, runs, `${runs} lines`);
  assert.equal(new Set(ids).size, runs, "one line per cell");
  for (const r of read.runs) assert.equal(r.status, "ok", String(r.error));
}

describe("experiment queue: faults around the collector (a stand-in worker)", () => {
  before(async () => {
    dir = tempDir("queue-faults");
    const built = await runCli(["corpus", "build", "--data", join(dir, "data"), "--only", SITE, "--quiet-ms", "1000"], 5 * 60_000);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    redis = await startRedis(dir);
  });

  after(async () => {
    for (const c of children) c.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.close(true).catch(() => undefined)));
    redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("Redis killed and restarted empty mid-collection: the recorded lines stay, the rest is queued again at once, one line per cell", async () => {
    const runs = 8;
    const x = writePlan("qrestart", runs);
    const worker = standInWorker(500);
    const c = collector(x.source, x.out);
    try {
      await until("two recorded lines", () => lines(x.runsFile).length >= 2, 30_000, c.stderr);
      const before = readFileSync(x.runsFile, "utf8");
      await redis!.kill();
      await sleep(1000);
      await redis!.restart();
      const restarted = Date.now();
      const code = await c.exited;
      const seconds = (Date.now() - restarted) / 1000;
      assert.equal(code, 0, c.stderr());
      assert.match(c.stderr(), /redis:\/\/127\.0\.0\.1:\d+: lost the connection to Redis \(ECONNREFUSED\); waiting for it to come back/);
      assert.match(c.stderr(), /redis:\/\/127\.0\.0\.1:\d+: Redis is back/);
      assert.match(c.stderr(), /redis:\/\/127\.0\.0\.1:\d+: Redis restarted; the \d+ runs not recorded yet are queued again/);
      assert.ok(readFileSync(x.runsFile, "utf8").startsWith(before), "the lines written before the restart are kept as they were");
      assertOneLinePerCell(x.planFile, runs);
      // Requeueing only every 30 s would be about that late.
      assert.ok(seconds < 15, `the collection ended ${seconds.toFixed(1)} s after Redis came back`);
      console.log(`the collection ended ${seconds.toFixed(1)} s after Redis came back`);
    } finally {
      c.child.kill("SIGKILL");
      await redis!.restart();
      await worker.close(true);
    }
  });

  it("Ctrl-C while Redis is down: a second Ctrl-C stops the collector at once, its recorded lines kept", async () => {
    const x = writePlan("qdown", 6);
    const worker = standInWorker(1000);
    const c = collector(x.source, x.out);
    try {
      await until("a recorded line", () => lines(x.runsFile).length >= 1, 30_000, c.stderr);
      await redis!.kill();
      const before = readFileSync(x.runsFile, "utf8");
      await sleep(1500);
      c.child.kill("SIGINT");
      // The first only stops waiting, which needs Redis to let go of the claim; the second does not wait.
      const first = await Promise.race([c.exited.then(() => true), sleep(1500).then(() => false)]);
      if (!first) c.child.kill("SIGINT");
      const code = await Promise.race([c.exited, sleep(3000).then(() => "still running")]);
      assert.equal(code, 130, c.stderr());
      assert.equal(readFileSync(x.runsFile, "utf8"), before, "the lines recorded stay as they were");
      for (const line of lines(x.runsFile)) assert.equal((JSON.parse(line) as RunResult).status, "ok");
    } finally {
      c.child.kill("SIGKILL");
      await redis!.restart();
      await worker.close(true);
    }
  });

  it("a second collector of the same plan is refused, naming the plan; a stopped one lets go at once, a killed one within the lock's 15 s", async () => {
    const runs = 3;
    const x = writePlan("qlock", runs);
    const { queue } = await openRunQueue(redis!.url);
    try {
      // No worker yet: the first collector waits with every cell queued.
      const first = collector(x.source, x.out);
      await until("the first collector queueing", () => /3 runs queued on/.test(first.stderr()), 20_000, first.stderr);
      const second = await runCli(["experiment", x.source, "--redis", redis!.url, "--out", x.out], 30_000);
      assert.equal(second.code, 1, second.stderr);
      const refusal = new RegExp(`qlock\\.plan\\.json: another collector is running for plan qlock \\(pid ${first.child.pid} on .*, since \\d{4}-.*\\); wait for it to finish or stop it`);
      assert.match(second.stderr, refusal);
      assert.doesNotMatch(second.stderr, /runs queued on/, "the refused collector queues nothing");

      first.child.kill("SIGINT");
      assert.equal(await first.exited, 0, first.stderr());
      const key = collectorLockKey(experimentJobPrefix("qlock", fileSha256(x.planFile)));
      const client = await queue.client;
      assert.equal(await client.get(key), null, "a stopped collector lets go of the plan");

      const crashed = collector(x.source, x.out);
      await until("the collector claiming the plan", async () => (await client.get(key))?.includes(`"pid":${crashed.child.pid}`) === true, 20_000, crashed.stderr);
      crashed.child.kill("SIGKILL");
      await crashed.exited;
      const refused = await runCli(["experiment", x.source, "--redis", redis!.url, "--out", x.out], 30_000);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, new RegExp(`pid ${crashed.child.pid} on .*a collector that died lets go within 15 s`));
      const killedAt = Date.now();
      await until("the killed collector's claim lapsing", async () => (await client.get(key)) === null, 17_000);
      console.log(`the killed collector's claim lapsed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the refusal`);

      standInWorker(50);
      const last = await runCli(["experiment", x.source, "--redis", redis!.url, "--out", x.out], 30_000);
      assert.equal(last.code, 0, last.stderr);
      assertOneLinePerCell(x.planFile, runs);
    } finally {
      await queue.close();
    }
  });
});
