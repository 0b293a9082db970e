import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { NET, netnsList } from "./net-topology.js";

const run = promisify(execFile);
const STATE = "/run/pagepath/net";

/** Run inside the shell: one HTTP GET to argv[1]:argv[2], timed at the TCP handshake and at the end. */
const CLIENT = `
const http = require("node:http");
const t0 = performance.now();
const req = http.get({ host: process.argv[1], port: Number(process.argv[2]), path: "/" }, (res) => {
  let body = "";
  res.on("data", (d) => (body += d));
  res.on("end", () => console.log(JSON.stringify({ connectMs, totalMs: performance.now() - t0, body })));
});
let connectMs = -1;
req.on("socket", (s) => s.on("connect", () => (connectMs = performance.now() - t0)));
req.on("error", (e) => { console.error(e.message); process.exit(1); });
`;

/**
 * The command prints $MAHIMAHI_BASE, then waits for the port of a server the test starts on the
 * host at that address, so the server binds only there (not 0.0.0.0) and exists before the GET.
 */
function startShell(delayMs: number): { shell: ChildProcess; lines: AsyncIterableIterator<string>; exited: Promise<number | null>; stderr: () => string } {
  const script = `echo "$MAHIMAHI_BASE"; read port; exec "$NODE_BIN" -e "$CLIENT_JS" "$MAHIMAHI_BASE" "$port"`;
  const shell = spawn(NET, ["shell", "mm-delay", String(delayMs), "--", "sh", "-c", script], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NODE_BIN: process.execPath, CLIENT_JS: CLIENT },
  });
  let err = "";
  shell.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((r) => shell.on("exit", (code) => r(code)));
  const lines = createInterface({ input: shell.stdout! })[Symbol.asyncIterator]();
  return { shell, lines, exited, stderr: () => err };
}

async function listenOn(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  return (server.address() as { port: number }).port;
}

async function hostHasAddress(addr: string): Promise<boolean> {
  const { stdout } = await run("ip", ["-o", "-4", "addr", "show", "to", `${addr}/32`]);
  return stdout.trim() !== "";
}

describe("pagepath net shell: the host is reachable at $MAHIMAHI_BASE, as in Mahimahi", () => {
  it("a server on the host at $MAHIMAHI_BASE answers through the emulated delay, and nothing is left after", async () => {
    const { shell, lines, exited, stderr } = startShell(20);
    const server = createServer((_, res) => res.end("from the host"));
    let base = "";
    try {
      const first = await lines.next();
      assert.ok(!first.done, `the shell printed no $MAHIMAHI_BASE (stderr: ${stderr()})`);
      base = first.value.trim();
      assert.match(base, /^\d+\.\d+\.\d+\.\d+$/, `MAHIMAHI_BASE is an IPv4 address, got "${base}"`);
      // Before the fix this failed: MAHIMAHI_BASE (10.200.0.1) lived only in the shell's own
      // server namespace, so the host could not listen there (EADDRNOTAVAIL).
      const port = await listenOn(server, base);
      shell.stdin!.end(`${port}\n`);
      const out = await lines.next();
      assert.equal(await exited, 0, `the command in the shell failed: ${stderr()}`);
      assert.ok(!out.done, "the client printed nothing");
      const got = JSON.parse(out.value);
      assert.equal(got.body, "from the host");
      // 20 ms each way: the handshake takes one round trip of at least 40 ms, the GET a second.
      assert.ok(got.connectMs >= 40 && got.connectMs < 200, `TCP handshake took ${got.connectMs} ms`);
      assert.ok(got.totalMs >= 80, `the GET took ${got.totalMs} ms`);
    } finally {
      server.close();
      if (shell.exitCode === null) shell.kill("SIGINT");
      await exited;
    }
    assert.ok(!(await netnsList()).some((n) => n.startsWith(`pp-sh${shell.pid}-`)), "the shell removed its namespaces");
    assert.ok(!(await hostHasAddress(base)), `the host still has ${base} after the shell ended`);
  });

  it("a killed shell's host link is removed at the next start", async () => {
    const shell = spawn(NET, ["shell", "delay", "5", "--", "sleep", "30"], { stdio: "ignore" });
    const stateFile = join(STATE, `sh${shell.pid}.json`);
    try {
      let base: string | undefined;
      for (let i = 0; i < 100 && !base; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if (existsSync(stateFile)) base = JSON.parse(readFileSync(stateFile, "utf8")).hostAddr;
      }
      assert.ok(base, "the shell recorded its host address");
      assert.ok(await hostHasAddress(base), `the host has ${base} while the shell runs`);
      shell.kill("SIGKILL");
      await new Promise((r) => shell.on("exit", r));
      await run(NET, ["shell", "delay", "1", "--", "true"]);
      assert.ok(!(await hostHasAddress(base)), `the next start removed ${base}`);
      assert.ok(!(await netnsList()).some((n) => n.startsWith(`pp-sh${shell.pid}-`)), "and the killed shell's namespaces");
    } finally {
      if (shell.exitCode === null && shell.signalCode === null) shell.kill("SIGKILL");
      await run(NET, ["down", `sh${shell.pid}`]).catch(() => undefined);
    }
  });
});
