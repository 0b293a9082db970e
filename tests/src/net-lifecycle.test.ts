import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { NET, netDown, netnsList, netUp, pair, PROBE, SERVER, withTopology, writeTemp } from "./net-topology.js";

const run = promisify(execFile);
const STATE = "/run/pagepath/net";

async function failsUp(name: string, args: string[]): Promise<string> {
  const e = await run(NET, ["up", "--name", name, ...args]).then(() => undefined, (err) => err);
  assert.ok(e, `up ${args.join(" ")} should fail`);
  assert.equal(e.code, 2, `exit code 2 for bad input (${e.stderr})`);
  assert.ok(!(await netnsList()).some((n) => n.startsWith(`pp-${name}-`)), "no namespace left behind");
  assert.ok(!existsSync(join(STATE, `${name}.json`)), "no state left behind");
  return e.stderr as string;
}

describe("pagepath net: bad input, cleanup, concurrency, Mahimahi shells, logs", () => {
  it("rejects malformed traces, unknown queues and absurd values with a message naming them", async () => {
    const cases: Array<[string, string[], RegExp]> = [
      ["non-numeric", ["--downlink-trace", writeTemp("bad", "a.trace", "1\n2\nabc\n")], /a\.trace: line 3.*abc/],
      ["decreasing", ["--downlink-trace", writeTemp("bad", "b.trace", "1\n5\n3\n")], /b\.trace: line 3/],
      ["empty", ["--downlink-trace", writeTemp("bad", "c.trace", "")], /c\.trace: .*no timestamps/],
      ["missing", ["--downlink-trace", "/nonexistent/x.trace"], /\/nonexistent\/x\.trace/],
      ["queue type", ["--rate-mbit", "10", "--queue", "fifo:packets=5"], /unknown queue type "fifo"/],
      ["negative delay", ["--delay-ms", "-5"], /delayMs: -5 is out of range/],
      ["absurd rate", ["--rate-mbit", "1e9"], /rateMbit: 1000000000 is out of range/],
      ["loss above 1", ["--loss", "1.5"], /loss: 1\.5 is out of range/],
      ["queue without limit", ["--rate-mbit", "10", "--queue", "droptail"], /needs a limit/],
    ];
    for (const [label, args, pattern] of cases) {
      const stderr = await failsUp("tbad", args);
      assert.match(stderr, pattern, `${label}: ${stderr}`);
    }
    const file = writeTemp("bad", "topo.json", JSON.stringify({ schemaVersion: 1, paths: [{ uplink: { delayMs: 10, queue: { type: "pie", packets: 5 } } }] }));
    assert.match(await failsUp("tbad", [file]), /topo\.json: paths\[0\]\.uplink\.queue\.type: unknown queue type "pie"/);
  });

  it("refuses to run without root, before creating anything", async () => {
    const e = await run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", NET, "up", "--name", "tnoroot", "--delay-ms", "5"]).then(() => undefined, (err) => err);
    assert.ok(e, "an unprivileged up must fail");
    assert.equal(e.code, 2);
    assert.match(e.stderr, /needs root/);
    assert.ok(!(await netnsList()).some((n) => n.startsWith("pp-tnoroot-")));
  });

  it("cleans up after a killed emulator at the next start, and runs two topologies at once", async () => {
    // Counters of topologies long gone are bounded: one over an hour old goes at the next start, a recent one stays.
    writeFileSync(join(STATE, "tstale.stats.json"), "{}");
    utimesSync(join(STATE, "tstale.stats.json"), new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
    writeFileSync(join(STATE, "trecent.stats.json"), "{}");
    await netUp("tcrash", ["--delay-ms", "5"]);
    assert.ok(!existsSync(join(STATE, "tstale.stats.json")), "an hour-old stats file of a topology that is down was removed");
    assert.ok(existsSync(join(STATE, "trecent.stats.json")), "a recent one is kept, to be read after down");
    rmSync(join(STATE, "trecent.stats.json"));
    const pid = JSON.parse(readFileSync(join(STATE, "tcrash.json"), "utf8")).pid;
    process.kill(pid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 300));
    assert.ok((await netnsList()).includes("pp-tcrash-c"), "a killed emulator leaves its namespaces");
    await withTopology("ta", ["--delay-ms", "5"], async () => {
      assert.ok(!(await netnsList()).some((n) => n.startsWith("pp-tcrash-")), "the next start removed them");
      assert.ok(!existsSync(join(STATE, "tcrash.json")));
      await withTopology("tb", ["--delay-ms", "15"], async () => {
        // Same addresses in both, different namespaces: each sees its own delay.
        const [a, b] = await Promise.all([
          pair("ta", ["echo", "--listen", `${SERVER}:7030`, "--seconds", "3"], ["rtt", "--connect", `${SERVER}:7030`, "--count", "10"]),
          pair("tb", ["echo", "--listen", `${SERVER}:7030`, "--seconds", "3"], ["rtt", "--connect", `${SERVER}:7030`, "--count", "10"]),
        ]);
        assert.ok(a.client.rttMs.min >= 10 && a.client.rttMs.min < 12, `ta RTT ${a.client.rttMs.min}`);
        assert.ok(b.client.rttMs.min >= 30 && b.client.rttMs.min < 32, `tb RTT ${b.client.rttMs.min}`);
      });
    });
    assert.ok(!(await netnsList()).some((n) => /^pp-t[ab]-/.test(n)), "down removed both");
  });

  it("runs its forwarding threads at real-time priority unless --no-realtime, and says which in its counters", async () => {
    const policies = (pid: number) => readdirSync(`/proc/${pid}/task`).map((t) => readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8")).filter((st) => /\((uplink|downlink)\d+\)/.test(st))
      // Field 41 of stat is the policy: 1 is SCHED_FIFO, 0 normal. Counted after the name's closing parenthesis.
      .map((st) => Number(st.slice(st.lastIndexOf(")") + 2).split(" ")[38]));
    const realtime = (name: string) => { const p = JSON.parse(readFileSync(join(STATE, `${name}.stats.json`), "utf8")).paths[0]; return [p.uplink.realtime, p.downlink.realtime]; };
    await withTopology("trt", ["--delay-ms", "1"], async () => {
      assert.deepEqual(policies(JSON.parse(readFileSync(join(STATE, "trt.json"), "utf8")).pid), [1, 1]);
      assert.deepEqual(realtime("trt"), [true, true]);
    });
    await withTopology("tnort", ["--delay-ms", "1", "--no-realtime"], async () => {
      assert.deepEqual(policies(JSON.parse(readFileSync(join(STATE, "tnort.json"), "utf8")).pid), [0, 0]);
      assert.deepEqual(realtime("tnort"), [false, false]);
    });
  });

  it("down kills processes left running inside the namespaces", async () => {
    await netUp("tprocs", ["--delay-ms", "1"]);
    const server = spawn(NET, ["exec", "tprocs", "server", "--", PROBE, "echo", "--listen", `${SERVER}:7031`], { stdio: "ignore" });
    const exited = new Promise((r) => server.on("exit", (c, s) => r(c ?? s)));
    await new Promise((r) => setTimeout(r, 300));
    await netDown("tprocs");
    const code = await exited;
    assert.ok(code !== null, "the echo server ended");
    assert.ok(!(await netnsList()).some((n) => n.startsWith("pp-tprocs-")));
  });

  it("a Mahimahi shell runs its command behind the link and cleans up on Ctrl-C", async () => {
    const trace = writeTemp("mm", "12mbit.trace", "1\n");
    const script = `${NET} exec $PAGEPATH_NET server -- ${PROBE} echo --listen $PAGEPATH_SERVER_ADDR:7040 --seconds 4 >/dev/null & sleep 0.3; ${PROBE} rtt --connect $PAGEPATH_SERVER_ADDR:7040 --count 10`;
    const { stdout } = await run(NET, ["shell", "mm-delay", "10", "mm-link", trace, trace, "--downlink-queue=droptail", "--downlink-queue-args=packets=30", "--", "sh", "-c", script]);
    const rtt = JSON.parse(stdout.trim().split("\n").at(-1)!);
    assert.equal(rtt.received, 10);
    // 20 ms of delay plus two 1 ms trace opportunities (a 1-line trace delivers once per ms).
    assert.ok(rtt.rttMs.min >= 20 && rtt.rttMs.min < 24, `RTT ${rtt.rttMs.min} ms`);
    assert.ok(!(await netnsList()).some((n) => /^pp-sh\d+-/.test(n)), "the shell removed its namespaces");

    const shell = spawn(NET, ["shell", "delay", "5", "--", "sleep", "30"], { stdio: "ignore" });
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok((await netnsList()).includes(`pp-sh${shell.pid}-c`), "the shell's topology is up");
    const ended = new Promise((r) => shell.on("exit", r));
    shell.kill("SIGINT");
    await ended;
    assert.ok(!(await netnsList()).some((n) => n.startsWith(`pp-sh${shell.pid}-`)), "Ctrl-C removed the namespaces");
  });

  it("writes mm-link logs that match its counters, and plots them as SVG", async () => {
    const dir = writeTemp("logs", "keep", "").replace(/keep$/, "logs");
    await withTopology("tlog", ["--delay-ms", "5", "--rate-mbit", "20", "--queue", "droptail:packets=50", "--log-dir", dir], async () => {
      await pair("tlog", ["tcp", "--listen", `${SERVER}:7050`, "--send", "2"], ["tcp", "--connect", `${SERVER}:7050`, "--recv"]);
    });
    assert.deepEqual(readdirSync(dir).sort(), ["path0.downlink.log", "path0.uplink.log"]);
    const log = readFileSync(join(dir, "path0.downlink.log"), "utf8");
    assert.match(log, /^# mahimahi mm-link/m);
    const departed = log.split("\n").filter((l) => / - /.test(l)).reduce((s, l) => s + Number(l.split(" ")[2]), 0);
    const stats = JSON.parse(readFileSync(join(STATE, "tlog.stats.json"), "utf8")).paths[0].downlink;
    assert.equal(departed, stats.departedBytes, "the log's departures add up to the counters");
    const { stdout } = await run(NET, ["plot", join(dir, "path0.downlink.log"), "--out", join(dir, "down.svg")]);
    assert.match(stdout, /mean capacity (19\.9\d|20\.0\d) Mbit\/s/);
    const svg = readFileSync(join(dir, "down.svg"), "utf8");
    assert.match(svg, /^(<\?xml[^>]*>\n)?<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });
});
