/**
 * What a Ctrl-C leaves behind: nothing. A terminal's Ctrl-C sends SIGINT to every process of the
 * foreground group, as these tests do to a group of their own (`detached`): `node --test` and each
 * test file's process, `pagepath replay`, `pagepath bench build`. A process killed outright leaves
 * its temporary root to the next process that makes one.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { before, describe, it } from "node:test";
import { CLI, runCli } from "./cli-run.js";
import { startFixture, tempDir } from "./fixture-profile.js";
import { assertNoneMarked, assertTopologyGone, groupAlive, interrupt, marked, newMark, startGroup, until, type Group } from "./interrupt-group.js";
import { NET, netnsList } from "./net-topology.js";

/** The helpers as every test imports them, from this very build. */
const FIXTURE_PROFILE = new URL("./fixture-profile.js", import.meta.url).href;
const NET_TOPOLOGY = new URL("./net-topology.js", import.meta.url).href;

/** The process ended of `signal`: killed by it, or exiting as a shell reports that (128 + its number). */
function diedOf(group: Group, signal: "SIGINT" | "SIGTERM"): boolean {
  return group.child.signalCode === signal || group.child.exitCode === (signal === "SIGINT" ? 130 : 143);
}

/** Entries of the temporary folder whose name contains `part`, one level down included. */
function tempEntries(part: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (name.includes(part)) found.push(path);
    else if (name.startsWith("pagepath-")) {
      try {
        found.push(...readdirSync(path).filter((n) => n.includes(part)).map((n) => join(path, n)));
      } catch {
        // a file, or gone meanwhile
      }
    }
  }
  return found;
}

describe("an interrupted run leaves no temporary folders and no topologies", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`pagepath profile: Chromium and its profile folder go on ${signal === "SIGINT" ? "Ctrl-C" : "SIGTERM to its process"}, and no recording is left half-written`, async () => {
      const site = await startFixture();
      const out = join(tempDir("interrupt-profile"), "recordings");
      const before = new Set(tempEntries("pagepath-chromium-"));
      // A long quiet period keeps the recording open after the load, so the Ctrl-C comes mid-recording.
      const mark = newMark("profile");
      const group = startGroup([process.execPath, CLI, "profile", site.config.entry, "--out", out, "--quiet-ms", "60000",
        "--host-resolver-rules", site.hostResolverRules(), "--ignore-certificate-errors-spki-list", site.certificate.spkiHash], { PAGEPATH_TEST_MARK: mark });
      try {
        const profile = await until("Chromium's profile folder", () => tempEntries("pagepath-chromium-").find((d) => !before.has(d)), group.output, 60_000);
        // The page loaded and the profiler waits for quiet: its requests have reached the site.
        await until("the page loading", () => (site.requests.length > 3 ? true : undefined), group.output, 60_000);
        await interrupt(group, signal, signal === "SIGINT" ? "group" : "leader");
        assert.ok(diedOf(group, signal), `exit ${group.child.exitCode ?? group.child.signalCode}: ${group.output()}`);
        await assertNoneMarked(mark, group.output);
        assert.ok(!existsSync(profile), `Chromium's profile folder ${profile} is still there, holding ${existsSync(profile) ? readdirSync(profile, { recursive: true }).slice(0, 20).join(", ") : "?"}; output:\n${group.output()}`);
        const left = existsSync(out) ? readdirSync(out) : [];
        assert.deepEqual(left.filter((d) => d.endsWith(".partial") || existsSync(join(out, d, "manifest.json"))), [], `a recording was left behind: ${left.join(", ")}`);
      } finally {
        if (groupAlive(group.child.pid!)) process.kill(-group.child.pid!, "SIGKILL");
        for (const p of marked(mark)) process.kill(p.pid, "SIGKILL");
        await site.close();
      }
    });
  }

  it("a test file under node --test: its folders and its topology go on Ctrl-C", async () => {
    const work = tempDir("interrupt-test");
    const ready = join(work, "ready");
    const name = `ti${process.pid % 10_000}`;
    const file = join(work, "waits.test.mjs");
    writeFileSync(
      file,
      `import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { tempDir } from ${JSON.stringify(FIXTURE_PROFILE)};
import { netUp } from ${JSON.stringify(NET_TOPOLOGY)};
it("waits to be interrupted", async () => {
  const dir = tempDir("interrupted");
  writeFileSync(join(dir, "data"), "x".repeat(100_000));
  await netUp(${JSON.stringify(name)}, ["--delay-ms", "5"]);
  writeFileSync(${JSON.stringify(ready)}, dir);
  await new Promise((r) => setTimeout(r, 120_000));
});
`,
    );
    const group = startGroup([process.execPath, "--test", file]);
    let dir: string | undefined;
    try {
      dir = await until("the test's folder and topology", () => (existsSync(ready) ? readFileSync(ready, "utf8") : undefined), group.output, 30_000);
      assert.ok(existsSync(dir) && (await netnsList()).includes(`pp-${name}-c`), "the test made its folder and brought its topology up");
      await interrupt(group);
      assert.ok(!existsSync(dir), `${dir} is left after Ctrl-C`);
      if (dirname(dir) !== tmpdir()) assert.ok(!existsSync(dirname(dir)), `its root ${dirname(dir)} is left after Ctrl-C`);
      assert.ok(!(await netnsList()).some((n) => n.startsWith(`pp-${name}-`)), `topology ${name} is still up after Ctrl-C`);
    } finally {
      if (groupAlive(group.child.pid!)) process.kill(-group.child.pid!, "SIGKILL");
      spawnSync(NET, ["down", name], { stdio: "ignore" });
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a test file that ends: its folders go with it", async () => {
    const work = tempDir("ends-test");
    const ready = join(work, "ready");
    const file = join(work, "ends.test.mjs");
    writeFileSync(file, `import { writeFileSync } from "node:fs";\nimport { tempDir } from ${JSON.stringify(FIXTURE_PROFILE)};\nwriteFileSync(${JSON.stringify(ready)}, tempDir("ended"));\n`);
    const group = startGroup([process.execPath, "--test", file]);
    await group.exited;
    const dir = readFileSync(ready, "utf8");
    try {
      assert.ok(!existsSync(dir), `${dir} is left after the test ended`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a process killed outright: the next one to make a temporary folder removes its root", async () => {
    const script = `import { tempDir } from ${JSON.stringify(FIXTURE_PROFILE)};\nconsole.log(tempDir("killed"));\nsetTimeout(() => {}, 120_000);\n`;
    const group = startGroup([process.execPath, "--input-type=module", "-e", script]);
    const dir = await until("the folder", () => group.output().trim() || undefined, group.output, 30_000);
    try {
      process.kill(group.child.pid!, "SIGKILL");
      await group.exited;
      assert.ok(existsSync(dir), "a killed process cannot remove its own folder");
      execFileSync(process.execPath, ["--input-type=module", "-e", `import { tempDir } from ${JSON.stringify(FIXTURE_PROFILE)}; tempDir("next");`]);
      assert.ok(!existsSync(dir), `${dir} of a killed process is left after the next process made its own`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`pagepath net up stopped by ${signal === "SIGINT" ? "Ctrl-C" : "SIGTERM to its process"} while it brings a topology up: nothing stays up`, async () => {
      const name = `tu${process.pid % 10_000}`;
      try {
        // Bring-up takes a moment; a Ctrl-C after it is up is the caller's to handle (netUp, the runner).
        for (let attempt = 0; attempt < 5; attempt++) {
          const group = startGroup([NET, "up", "--name", name, "--paths", "2", "--delay-ms", "5"]);
          await until("the topology's first namespace", () => (existsSync(`/run/netns/pp-${name}-c`) || group.child.exitCode !== null ? true : undefined), group.output, 30_000, 2);
          if (group.child.exitCode === 0) {
            spawnSync(NET, ["down", name], { stdio: "ignore" });
            continue;
          }
          await interrupt(group, signal, signal === "SIGINT" ? "group" : "leader");
          assert.ok(!(await netnsList()).some((n) => n.startsWith(`pp-${name}-`)), `topology ${name} is still up after Ctrl-C:\n${group.output()}`);
          assert.ok(!existsSync(join("/run/pagepath/net", `${name}.json`)), `topology ${name} left its state after Ctrl-C`);
          assert.ok(diedOf(group, signal), `exit ${group.child.exitCode ?? group.child.signalCode}: ${group.output()}`);
          assert.match(group.output(), new RegExp(`interrupted: ${name} was taken down before it came up`));
          return;
        }
        assert.fail("pagepath net up was up every time before the Ctrl-C could reach it");
      } finally {
        spawnSync(NET, ["down", name], { stdio: "ignore" });
      }
    });
  }

  it("pagepath bench build: its temporary folder goes on Ctrl-C", async () => {
    const before = new Set(tempEntries("bench-build"));
    const group = startGroup([process.execPath, CLI, "bench", "build", "--loads", "1", "--out", tempDir("bench-out")]);
    let made: string[] = [];
    try {
      // The generated site is written before anything is profiled: the folder has content by then.
      made = await until("the benchmark's folder", () => {
        const now = tempEntries("bench-build").filter((p) => !before.has(p) && existsSync(join(p, "large-site")));
        return now.length > 0 ? now : undefined;
      }, group.output);
      await interrupt(group);
      assert.deepEqual(made.filter((p) => existsSync(p)), [], "the benchmark's folder is left after Ctrl-C");
    } finally {
      if (groupAlive(group.child.pid!)) process.kill(-group.child.pid!, "SIGKILL");
      for (const p of made) rmSync(p, { recursive: true, force: true });
    }
  });

  /**
   * `pagepath replay` stopped at two points, by Ctrl-C (SIGINT to its group) and by SIGTERM to its
   * process alone (`kill PID`): while its topology comes up, and while the page loads. Nothing it
   * started may outlive it (emulator, replay servers, the emulated browser) and its topology goes.
   */
  describe("pagepath replay interrupted", () => {
    let graph = "";
    before(async () => {
      const data = join(tempDir("interrupt-replay"), "data");
      const built = await runCli(["corpus", "build", "--data", data, "--only", "fixture-multi-origin", "--quiet-ms", "1000"], 5 * 60_000);
      assert.equal(built.code, 0, built.stdout + built.stderr);
      graph = join(data, "graphs", "fixture-multi-origin.json");
    });

    const points = {
      // Bring-up takes a moment: the first namespace exists, the load has not begun.
      "while its topology comes up": (name: string, output: string) => (existsSync(`/run/netns/pp-${name}-c`) && !/^replaying /m.test(output) ? true : undefined),
      "while the page loads": (name: string, output: string) => (/^replaying /m.test(output) && existsSync(`/run/netns/pp-${name}-c`) ? true : undefined),
    };
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      for (const [point, reached] of Object.entries(points)) {
        it(`${signal === "SIGINT" ? "by Ctrl-C" : "by SIGTERM to its process"} ${point}: nothing it started is left, nor its topology`, async () => {
          // The bring-up is short: a few tries, until the signal lands inside it.
          for (let attempt = 0; attempt < 5; attempt++) {
            const mark = newMark("replay");
            // A slow link, so the load is still under way when the signal comes.
            const group = startGroup([process.execPath, CLI, "replay", graph, "--client", "emulated", "--rate-mbit", "1", "--rtt-ms", "400", "--out", join(dirname(graph), `run-${mark}.json`)], { PAGEPATH_TEST_MARK: mark });
            const name = `run${group.child.pid! % 100_000}`;
            try {
              await until(point, () => (group.child.exitCode !== null ? false : reached(name, group.output())), group.output, 60_000, 2);
              if (!reached(name, group.output())) continue;
              await interrupt(group, signal, signal === "SIGINT" ? "group" : "leader");
              assert.ok(diedOf(group, signal), `exit ${group.child.exitCode ?? group.child.signalCode}: ${group.output()}`);
              await assertNoneMarked(mark, group.output);
              await assertTopologyGone(name);
              return;
            } finally {
              if (groupAlive(group.child.pid!)) process.kill(-group.child.pid!, "SIGKILL");
              for (const p of marked(mark)) process.kill(p.pid, "SIGKILL");
              spawnSync(NET, ["down", name], { stdio: "ignore" });
            }
          }
          assert.fail(`the signal never came ${point} in five tries`);
        });
      }
    }
  });
});
