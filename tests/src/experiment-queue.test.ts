import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { UnrecoverableError, Worker } from "bullmq";
import { cellId, cellOf, planCells, readExperiment, runsFileFor, type CellKey, type ExperimentPlan, type RunResult } from "@pagepath/results";
import {
  appendRun,
  cellJobId,
  collectExperiment,
  enqueueCells,
  experimentJobPrefix,
  fileSha256,
  NET_BINARY,
  openRunQueue,
  pendingCells,
  QUEUE_NAME,
  workerTagBase,
  type CellJob,
  type RunQueue,
} from "@pagepath/runner";
import { CLI, runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { freePort, startRedis, type Redis } from "./private-redis.js";
import { network, samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";

const run = promisify(execFile);
const root = process.getuid?.() === 0;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** `pagepath worker` in a process group of its own, so that it and every run it started can be killed. */
class WorkerProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [CLI, "worker", ...args], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    let partial = "";
    this.child.stdout!.on("data", (d) => {
      const parts = (partial + d).split("\n");
      partial = parts.pop()!;
      this.lines.push(...parts);
    });
    this.child.stderr!.on("data", (d) => this.lines.push(`stderr: ${d}`));
    this.exited = new Promise((ok) => this.child.on("exit", (code) => ok(code)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The job ids of the `started` or `finished` lines. */
  jobs(verb: "started" | "finished"): string[] {
    return this.lines.flatMap((l) => (l.split(" ")[1] === verb ? [l.split(" ")[2]!] : []));
  }

  async waitFor(pattern: RegExp, timeoutMs: number): Promise<string> {
    await this.waitUntil(() => this.lines.some((l) => pattern.test(l)), `a line matching ${pattern}`, timeoutMs);
    return this.lines.find((l) => pattern.test(l))!;
  }

  async waitUntil(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
    for (const end = Date.now() + timeoutMs; !done(); await sleep(100)) {
      if (Date.now() > end) throw new Error(`worker ${this.pid}: no ${what} within ${timeoutMs} ms:\n${this.lines.join("\n")}`);
    }
  }

  killGroup(): void {
    try {
      process.kill(-this.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** How many lines each cell has in a runs file. */
function linesPerCell(runsFile: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of readFileSync(runsFile, "utf8").split("\n").filter(Boolean)) {
    const id = cellId(cellOf(JSON.parse(line) as RunResult));
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function jobsLeft(queue: RunQueue): Promise<number> {
  const counts = await queue.getJobCounts();
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

describe("experiment queue: URLs and connections", () => {
  it("names a bad --redis URL, and a Redis that does not answer within seconds, password masked", async () => {
    const scheme = await runCli(["worker", "--redis", "http://127.0.0.1:6379"], 30_000);
    assert.equal(scheme.code, 1);
    assert.match(scheme.stderr, /--redis http:\/\/127\.0\.0\.1:6379: the scheme must be redis:, not http:; expected redis:\/\/\[:password@\]host\[:port\]\[\/db\]/);
    const port = await runCli(["worker", "--redis", "redis://127.0.0.1:port"], 30_000);
    assert.match(port.stderr, /--redis redis:\/\/127\.0\.0\.1:port: not a URL/);
    const db = await runCli(["worker", "--redis", "redis://127.0.0.1:6379/one"], 30_000);
    assert.match(db.stderr, /the database "one" must be a number/);

    const closed = await freePort();
    const started = Date.now();
    const refused = await runCli(["worker", "--redis", `redis://:secret@127.0.0.1:${closed}`], 30_000);
    const ms = Date.now() - started;
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr.trim(), `pagepath worker: --redis redis://:***@127.0.0.1:${closed}: cannot connect to Redis (ECONNREFUSED)`);
    assert.ok(ms < 8000, `gave up after ${ms} ms`);
  });

  it("takes --queue URL, the old name of --redis, with a notice that does not repeat the URL, and refuses both at once", async () => {
    const old = await runCli(["worker", "--queue", "http://:secret@127.0.0.1:6379"], 30_000);
    assert.equal(old.code, 1);
    assert.match(old.stderr, /^pagepath: --queue URL is now --redis URL; the old spelling works until the next release\n/);
    assert.match(old.stderr, /--redis http:\/\/:\*\*\*@127\.0\.0\.1:6379: the scheme must be redis:/);
    assert.doesNotMatch(old.stderr, /secret/);
    const both = await runCli(["experiment", "x.plan.json", "--queue", "redis://127.0.0.1:9", "--redis", "redis://127.0.0.1:9"], 30_000);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--queue URL is the old spelling of --redis URL: give one of them/);
  });
});

describe("experiment queue: collecting without root (a stand-in worker)", () => {
  const dir = tempDir("queue-collect");
  let redis: Redis;
  let queue: RunQueue;
  before(async () => {
    redis = await startRedis(dir);
    queue = (await openRunQueue(redis.url)).queue;
  });
  after(async () => {
    await queue?.close();
    redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** TEST INPUT: six cells of a plan whose graph nobody replays; the stand-in worker makes up their results. */
  function experiment(): { plan: ExperimentPlan; planFile: string; runsFile: string; planSha256: string } {
    const plan = samplePlan("qfast", { sites: [{ name: "alpha", graph: "graphs/alpha.json" }], networks: [network(10, 20)], protocols: ["h2"], runs: 6, connectionsPerOrigin: { h2: 1 } });
    const { plan: planFile } = writeExperiment(dir, plan, []);
    return { plan, planFile, runsFile: runsFileFor(planFile), planSha256: fileSha256(planFile) };
  }

  it("records every cell once across a stopped and resumed collection, gives failed jobs a failed line, retries them on request", async () => {
    const x = experiment();
    /** TEST INPUT: made-up results, 100 ms each; run 3 fails for good unless `fixed`. */
    const standIn = (fixed: boolean) =>
      new Worker<CellJob, RunResult>(
        QUEUE_NAME,
        async (job) => {
          await sleep(100);
          if (job.data.cell.run === 3 && !fixed) throw new UnrecoverableError("TEST INPUT: the machine caught fire");
          return { ...sampleRun(x.plan, job.data.cell, 50 + job.data.cell.run), startedAt: new Date().toISOString() };
        },
        { connection: { host: "127.0.0.1", port: redis.port } },
      );
    let worker = standIn(false);
    try {
      const stop = new AbortController();
      let recorded = 0;
      const first = await collectExperiment({
        ...x,
        queue,
        cells: pendingCells(x.plan, x.runsFile, false),
        signal: stop.signal,
        onEvent: (e) => {
          if (e.type === "recorded" && ++recorded === 2) stop.abort();
        },
      });
      assert.deepEqual(first, { done: 2, failed: 0, owed: 4 });

      // The worker goes on while nobody collects; then a collector dies between writing a line and removing its job.
      for (let waited = 0; ; waited += 100) {
        const c = await queue.getJobCounts("waiting", "active");
        if (c.waiting! + c.active! === 0) break;
        assert.ok(waited < 10_000, "the stand-in worker did not drain the queue");
        await sleep(100);
      }
      assert.deepEqual(await queue.getJobCounts("completed", "failed"), { completed: 3, failed: 1 });
      const [stale] = await queue.getRanges(["completed"], 0, 0);
      appendRun(x.runsFile, (await queue.getJob(stale!))!.returnvalue);

      const owed = pendingCells(x.plan, x.runsFile, false);
      assert.equal(owed.length, 3);
      const second = await collectExperiment({ ...x, queue, cells: owed, onEvent: () => undefined });
      assert.deepEqual(second, { done: 3, failed: 1, owed: 0 });
      assert.deepEqual([...linesPerCell(x.runsFile).values()], [1, 1, 1, 1, 1, 1]);
      const read = readExperiment(x.planFile);
      assert.deepEqual(read.warnings, []);
      const failed = read.runs.filter((r) => r.status === "failed");
      assert.deepEqual(failed.map((r) => r.run), [3]);
      assert.match(failed[0]!.error!, /the queue gave up on this run \(job qfast~[0-9a-f]{12}~[0-9a-f]{24}, worker .*\): TEST INPUT: the machine caught fire/);
      assert.equal(await jobsLeft(queue), 0, "collected jobs are removed from Redis");

      await worker.close();
      const cells = planCells(x.plan);
      await enqueueCells(queue, x, cells);
      await enqueueCells(queue, x, cells);
      assert.equal((await queue.getJobCounts("waiting")).waiting, cells.length, "queueing a plan again adds nothing");
      await queue.drain();

      worker = standIn(true);
      const retry = await collectExperiment({ ...x, queue, cells: pendingCells(x.plan, x.runsFile, true), onEvent: () => undefined });
      assert.deepEqual(retry, { done: 1, failed: 0, owed: 0 });
      const again = readExperiment(x.planFile);
      assert.ok(again.runs.every((r) => r.status === "ok"));
      assert.equal(again.warnings.length, 1);
      assert.match(again.warnings[0]!, /line 7: reruns the cell of line \d/);
    } finally {
      await worker.close();
    }
  });

  // A worker refuses to start without root (needs-root.test.ts), so these need it too.
  const needsWorker = { skip: root ? false : "pagepath worker needs root" };

  it("a worker refuses a cell queued from another copy of the plan, and stops on SIGTERM", needsWorker, async () => {
    const x = experiment();
    const other = "f".repeat(64);
    const worker = new WorkerProcess(["--redis", redis.url, "--tag-prefix", "qr"]);
    try {
      await worker.waitFor(/worker ready: queue pagepath-runs on redis:\/\/127\.0\.0\.1:\d+, 1 at once, locks 30 s/, 20_000);
      const cell: CellKey = planCells(x.plan)[0]!;
      const r = await collectExperiment({ ...x, planSha256: other, queue, cells: [cell], onEvent: () => undefined });
      assert.deepEqual(r, { done: 1, failed: 1, owed: 0 });
      const line = readExperiment(x.planFile).runs.find((l) => cellId(cellOf(l)) === cellId(cell))!;
      assert.match(line.error!, new RegExp(`qfast\\.plan\\.json: on .* its SHA-256 is ${x.planSha256}, but the cell was queued from a plan with SHA-256 ${other}`));
      await worker.waitFor(/refused qfast~f{12}~/, 5000);
      worker.child.kill("SIGTERM");
      assert.equal(await worker.exited, 0);
      assert.match(worker.lines.join("\n"), /stopped: 0 runs finished, 1 refused, 0 given back/);
    } finally {
      worker.killGroup();
    }
  });

  it("a worker refuses a cell of a plan that asks Chromium for multipath QUIC, which Chromium does not have", needsWorker, async () => {
    const twoPaths = { ...network(10, 20), name: "10M-20ms-2p" };
    twoPaths.paths = [twoPaths.paths[0]!, twoPaths.paths[0]!];
    // TEST INPUT: queued as an older pagepath, whose plan check let it through, would have queued it.
    const plan = samplePlan("qmpquic", { client: "chromium", sites: [{ name: "alpha", graph: "graphs/alpha.json" }], networks: [twoPaths], protocols: ["h3"], transports: ["mpquic"], runs: 1, connectionsPerOrigin: { h3: null } });
    const { plan: planFile } = writeExperiment(dir, plan, []);
    const queued = { plan, planFile, planSha256: fileSha256(planFile) };
    const [cell] = planCells(plan);
    const worker = new WorkerProcess(["--redis", redis.url, "--tag-prefix", "qm"]);
    try {
      await worker.waitFor(/worker ready/, 20_000);
      await enqueueCells(queue, queued, [cell!]);
      await worker.waitFor(/refused qmpquic~/, 20_000);
      // The worker says "refused" just before BullMQ records the failure, so read the job once failed.
      const id = cellJobId(plan.name, queued.planSha256, cell!);
      for (let waited = 0; (await queue.getJobState(id)) !== "failed"; waited += 50) {
        assert.ok(waited < 5000, `job ${id} never became failed`);
        await sleep(50);
      }
      const job = (await queue.getJob(id))!;
      assert.match(job.failedReason, /qmpquic\.plan\.json: \/transports\/0: mpquic: Chromium has no multipath QUIC/);
      assert.deepEqual(worker.jobs("started"), [], "no run was started");
      await job.remove();
    } finally {
      worker.child.kill("SIGTERM");
      await worker.exited;
      worker.killGroup();
    }
  });
});

describe("experiment queue: two workers on real runs, one killed mid-run", { skip: root ? false : "needs root (network namespaces)" }, () => {
  const SITE = "rules-thesis-example";
  const workers: WorkerProcess[] = [];
  let dir = "";
  let redis: Redis | undefined;

  before(async () => {
    dir = tempDir("queue-runs");
    const data = join(dir, "data");
    const built = await runCli(["corpus", "build", "--data", data, "--only", SITE, "--quiet-ms", "1000"], 5 * 60_000);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    redis = await startRedis(dir);
  });

  after(async () => {
    for (const w of workers) w.killGroup();
    redis?.stop();
    await removeTopologies(workers.map((w) => workerTagBase("qt", w.pid)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("records every cell exactly once and runs the killed worker's cell again elsewhere", async () => {
    const runs = 8;
    const plan = samplePlan("qruns", {
      description: "two workers, one killed mid-run",
      sites: [{ name: SITE, graph: `data/graphs/${SITE}.json` }],
      networks: [network(20, 20)],
      protocols: ["h2"],
      runs,
      connectionsPerOrigin: { h2: 1 },
      timeoutMs: 60_000,
    });
    const source = join(dir, "qruns.plan.json");
    writeFileSync(source, JSON.stringify(plan, null, 2));
    const out = join(dir, "out");
    const started = Date.now();
    for (let i = 0; i < 2; i++) workers.push(new WorkerProcess(["--redis", redis!.url, "--lock-seconds", "3", "--tag-prefix", "qt"]));
    await Promise.all(workers.map((w) => w.waitFor(/worker ready/, 20_000)));

    const experiment = runCli(["experiment", source, "--redis", redis!.url, "--out", out], 5 * 60_000);
    // The first worker to finish a run is killed in the middle of its next one.
    const victim = await Promise.any(workers.map((w) => w.waitFor(/ finished /, 60_000).then(() => w)));
    const survivor = workers.find((w) => w !== victim)!;
    // A run here takes about 0.4 s: the kill comes 100 ms into one, and if that run ended first
    // (its line can lag), into the next.
    let lost: string[] = [];
    for (let tries = 0; tries < 5 && lost.length !== 1; tries++) {
      await victim.waitUntil(() => victim.jobs("started").length > victim.jobs("finished").length, "a run under way", 30_000);
      await sleep(100);
      lost = victim.jobs("started").filter((id) => !victim.jobs("finished").includes(id));
    }
    assert.equal(lost.length, 1, victim.lines.join("\n"));
    victim.child.kill("SIGKILL");
    const killedAt = Date.now();

    const r = await experiment;
    const seconds = (Date.now() - started) / 1000;
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const planFile = join(out, "qruns.plan.json");
    const runsFile = runsFileFor(planFile);
    const perCell = linesPerCell(runsFile);
    assert.equal(perCell.size, runs);
    assert.deepEqual([...perCell.values()], Array(runs).fill(1), "one line per cell");
    const read = readExperiment(planFile);
    assert.deepEqual(read.warnings, []);
    for (const line of read.runs) assert.equal(line.status, "ok", String(line.error));

    const rerun = survivor.lines.find((l) => l.includes(`started ${lost[0]} `));
    assert.ok(rerun, `the survivor never ran ${lost[0]}:\n${survivor.lines.join("\n")}`);
    assert.match(rerun, / attempt 2$/);
    assert.ok(survivor.lines.some((l) => l.includes(`stalled ${lost[0]}`)), survivor.lines.join("\n"));
    const { queue } = await openRunQueue(redis!.url);
    try {
      assert.equal(await jobsLeft(queue), 0, "no job left behind in Redis");
      const prefix = experimentJobPrefix("qruns", fileSha256(planFile));
      assert.ok([...victim.jobs("started"), ...survivor.jobs("started")].every((id) => id.startsWith(prefix)));
    } finally {
      await queue.close();
    }
    const backAfter = (Date.parse(rerun.split(" ")[0]!) - killedAt) / 1000;
    console.log(
      `${runs} cells in ${seconds.toFixed(1)} s: the killed worker started ${victim.jobs("started").length} and finished ${victim.jobs("finished").length}; ` +
        `the survivor finished ${survivor.jobs("finished").length}, including the killed worker's ${lost[0]}, started again ${backAfter.toFixed(1)} s after the kill (3 s locks)`,
    );

    const again = await runCli(["experiment", source, "--redis", redis!.url, "--out", out], 60_000);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /every cell has a result already/);
    assert.equal(readFileSync(runsFile, "utf8").split("\n").filter(Boolean).length, runs);

    survivor.child.kill("SIGTERM");
    assert.equal(await survivor.exited, 0);
    assert.match(survivor.lines.join("\n"), new RegExp(`stopped: ${survivor.jobs("finished").length} runs finished, 0 refused, 0 given back`));
  });
});

/** Takes down what runs of this test's workers left (a killed worker's topology), and nothing else. */
async function removeTopologies(tagBases: string[]): Promise<void> {
  const ours = (name: string) => tagBases.some((b) => name.includes(b));
  const status = await run(NET_BINARY, ["status", "--json"]).catch(() => ({ stdout: "[]" }));
  for (const t of JSON.parse(status.stdout) as { state: { name: string } }[]) {
    if (ours(t.state.name)) await run(NET_BINARY, ["down", t.state.name]).catch(() => undefined);
  }
  const { stdout } = await run("ip", ["netns", "list"]).catch(() => ({ stdout: "" }));
  for (const ns of stdout.split("\n").map((l) => l.split(" ")[0]!)) {
    if (ns.startsWith("pp-") && ours(ns)) await run("ip", ["netns", "delete", ns]).catch(() => undefined);
  }
}
