/** How the CLI reads a command line: misspelled options, and paths given relative to where it runs. */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

describe("the CLI's options", () => {
  it("names a misspelled option and the one it most likely meant, with no advice about positionals", async () => {
    for (const [args, want] of [
      [["build", "recordings", "--ouput", "x"], "pagepath build: unknown option --ouput (did you mean --out?)"],
      [["replay", "g.json", "--client", "emulated", "--rtt", "40"], "pagepath replay: unknown option --rtt (did you mean --rtt-ms?)"],
      [["experiment", "p.plan.json", "--worker", "2"], "pagepath experiment: unknown option --worker (did you mean --workers?)"],
      [["dot", "g.json", "--zzz"], "pagepath dot: unknown option --zzz\n"],
    ] as const) {
      const r = await runCli([...args], 30_000);
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.startsWith(want), `${args.join(" ")}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /as in '/);
    }
  });

  it("answers --help on every verb and subverb, and pagepath help VERB is the same text", async () => {
    const every = await everyCommand();
    assert.ok(every.length > 30, `verbs and subverbs found: ${every.map((w) => w.join(" ")).join(", ")}`);
    for (const words of every) {
      const asked = await runCli([...words, "--help"], 30_000);
      assert.equal(asked.code, 0, `${words.join(" ")} --help: ${asked.stderr}`);
      assert.match(asked.stdout, /^usage: pagepath /, `${words.join(" ")} --help`);
      const help = await runCli(["help", ...words], 30_000);
      assert.equal(help.code, 0, help.stderr);
      assert.equal(help.stdout, asked.stdout, `pagepath help ${words.join(" ")}`);
    }
    // exec passes what follows its topology to the command, --help included.
    const exec = await runCli(["net", "exec", "no-such-topology", "client", "ls", "--help"], 30_000);
    assert.notEqual(exec.code, 0);
    assert.doesNotMatch(exec.stdout, /^usage:/);
  });

  it("completes every subcommand that net --help lists", async () => {
    const usage = (await runCli(["net", "--help"], 30_000)).stdout;
    const listed = [...usage.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!);
    const completed = (await everyCommand()).filter((w) => w[0] === "net" && w.length === 2).map((w) => w[1]!);
    assert.deepEqual(completed.sort(), [...new Set(listed)].sort());
  });

  it("accuracy names a bad protocol in its --protocols list before anything runs", async () => {
    const r = await runCli(["accuracy", "--protocols", "h2,h9", "--data", tempDir("no-corpus")], 30_000);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--protocols h9: --protocol "h9": expected one of h1, /);
  });

  it("accuracy names a bad path of a multipath condition and a transport its protocol cannot use", async () => {
    const path = await runCli(["accuracy", "--conditions", "10:40+5", "--data", tempDir("no-corpus")], 30_000);
    assert.equal(path.code, 2, path.stderr);
    assert.match(path.stderr, /--conditions: "10:40\+5" is not RATE_MBIT:RTT_MS/);
    const stack = await runCli(["accuracy", "--protocols", "h2,h2/quic", "--data", tempDir("no-corpus")], 30_000);
    assert.equal(stack.code, 2, stack.stderr);
    assert.match(stack.stderr, /--protocols h2\/quic: --transport "quic": expected one of tcp, mptcp/);
  });

  it("accuracy names a client it does not know in --clients", async () => {
    const r = await runCli(["accuracy", "--clients", "chromium,firefox", "--data", tempDir("no-corpus")], 30_000);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--clients "chromium,firefox": expected chromium, emulated, simulated or several/);
  });

  it("accuracy --resume takes up the newest sweep folder that has runs, and says so; without one it says there is none", async () => {
    const cwd = tempDir("accuracy-resume");
    for (const [name, runs] of [["2026-01-01T00-00-00", true], ["2026-02-01T00-00-00", true], ["2026-03-01T00-00-00", false]] as const) {
      mkdirSync(join(cwd, "accuracy", name), { recursive: true });
      if (runs) writeFileSync(join(cwd, "accuracy", name, "runs.jsonl"), "");
    }
    const r = await runCli(["accuracy", "--resume", "--clients", "simulated", "--data", tempDir("no-corpus")], 30_000, {}, [], cwd);
    assert.match(r.stderr, /^resuming accuracy\/2026-02-01T00-00-00\n/, "the newest folder that holds runs; the last one has none");
    const none = await runCli(["accuracy", "--resume", "--clients", "simulated", "--data", tempDir("no-corpus")], 30_000, {}, [], tempDir("accuracy-none"));
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--resume: no earlier sweep in accuracy\/ \(a folder holding runs\.jsonl\)/);
    const both = await runCli(["accuracy", "--resume", "--out", "x", "--data", tempDir("no-corpus")], 30_000, {}, [], cwd);
    assert.match(both.stderr, /give one of them/);
  });

  it("resolves relative paths against the working directory once, and prints them relative to it", async () => {
    const dir = tempDir("cli-paths");
    mkdirSync(join(dir, "work"));
    // a generated site needs no network: its --out is relative to the working directory, not to
    // where any part of pagepath runs
    const r = await runCli(["corpus", "generate", "--count", "1", "--out", "sites"], 60_000, {}, [], join(dir, "work"));
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(dir, "work", "sites", "gen-1-1", "site.json")));
    assert.match(r.stdout, /^sites\/gen-1-1 /m);
    const outside = await runCli(["corpus", "generate", "--count", "1", "--out", "../elsewhere"], 60_000, {}, [], join(dir, "work"));
    assert.equal(outside.code, 0, outside.stderr);
    assert.ok(outside.stdout.includes(`${join(dir, "elsewhere", "gen-1-1")} `), `an --out outside the working directory is printed absolute: ${outside.stdout}`);
  });
});

/**
 * Every verb, and every subverb of those that have them, as the bash completion script lists them:
 * the CLI's own list, so a verb added later is covered without editing this test.
 */
async function everyCommand(): Promise<string[][]> {
  const script = (await runCli(["completion", "bash"], 30_000)).stdout;
  const verbs = script.match(/COMP_CWORD" -eq 1 \]; then\s+COMPREPLY=\(\$\(compgen -W "([^"]+)"/)![1]!.split(" ").filter((v) => v !== "help");
  const commands: string[][] = [];
  for (const verb of verbs) {
    commands.push([verb]);
    const subs = script.match(new RegExp(`\\n {4}${verb}\\)\\n.*?compgen -W "([^"]+)"`))?.[1];
    for (const sub of subs?.split(" ") ?? []) commands.push([verb, sub]);
  }
  return commands;
}
