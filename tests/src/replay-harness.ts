import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CHROMIUM, NO_CONDITIONS, recordPage, writeRecording, type ProfileOptions } from "@pagepath/profiler";
import { NET } from "./net-topology.js";
import { tempDir } from "./fixture-profile.js";

export const REPLAY_SERVER = join(process.cwd(), "replay", "target", "release", "pagepath-server");
export const FETCH = join(process.cwd(), "replay", "target", "release", "pagepath-fetch");

export interface RunningReplay {
  out: string;
  /** origins.json: the name map and Chromium's flags. */
  nameMap: any;
  child: ChildProcess;
  /** SIGTERM, then the exit code; the logs and fidelity.json are whole after it. */
  stop(): Promise<number | null>;
}

/**
 * A replay server for a recording: in the server namespace of topology `net` (10.200.1.1 and up),
 * or on loopback (127.0.1.1 and up, or --first-address in args) without one. Resolves once it
 * announces that every origin listens; rejects with its error if it exits first.
 */
export function startReplay(recording: string, args: string[], net?: string): Promise<RunningReplay> {
  const out = join(tempDir("replay"), "out");
  const server = ["serve", recording, "--out", out, ...args];
  if (!args.includes("--first-address")) server.push("--first-address", net ? "10.200.1.1" : "127.0.1.1");
  const child = net
    ? spawn(NET, ["exec", net, "server", "--", REPLAY_SERVER, ...server], { stdio: ["ignore", "pipe", "pipe"] })
    : spawn(REPLAY_SERVER, server, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`replay server not ready after 60 s: ${stderr.trim()}`));
    }, 60_000);
    child.stdout!.on("data", (d) => {
      stdout += d;
      if (!stdout.includes('"ready":true')) return;
      clearTimeout(timer);
      resolve({
        out,
        nameMap: JSON.parse(readFileSync(join(out, "origins.json"), "utf8")),
        child,
        async stop() {
          if (child.exitCode === null) child.kill("SIGTERM");
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new ReplayFailed(code, stderr.trim()));
    });
  });
}

export class ReplayFailed extends Error {
  constructor(
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`replay server exited ${code}: ${stderr}`);
  }
}

/** A script that starts Debian's Chromium inside the client namespace of a topology. */
export function chromiumInClientNamespace(net: string): string {
  const path = join(tempDir("chromium-ns"), "chromium");
  writeFileSync(path, `#!/bin/sh\nexec "${NET}" exec "${net}" client -- "${DEFAULT_CHROMIUM}" "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Profiler options that load a page from a running replay, as the name map says. */
export function replayProfileOptions(replay: RunningReplay, executablePath: string): ProfileOptions {
  const flags: string[] = replay.nameMap.chromiumFlags;
  return {
    executablePath,
    hostResolverRules: replay.nameMap.hostResolverRules,
    ignoreCertificateSpki: [replay.nameMap.spkiHash],
    extraArgs: flags.filter((f) => !f.startsWith("--host-resolver-rules=") && !f.startsWith("--ignore-certificate-errors-spki-list=")),
    stop: { quietMs: 1000, capMs: 30_000 },
    conditions: NO_CONDITIONS,
    redact: true,
  };
}

/** Loads `url` from the replay in Chromium and writes what Chromium saw as a recording. */
export async function recordReplay(url: string, replay: RunningReplay, executablePath: string): Promise<string> {
  const dir = join(tempDir("replayed"), "rec");
  const { recording } = await recordPage(url, replayProfileOptions(replay, executablePath));
  writeRecording(dir, recording);
  return dir;
}

export function readJsonLines(path: string): any[] {
  return readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}
