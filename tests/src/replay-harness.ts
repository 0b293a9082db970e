import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { connect } from "node:http2";
import { join } from "node:path";
import { chromiumInNamespace, replayChromiumOptions, startReplayServer } from "@pagepath/runner";
import { writeSyntheticRecording, type SyntheticResource } from "@pagepath/corpus";
import { readRecording, recordPage, writeRecording, type ArchiveEntry, type ProfileOptions } from "@pagepath/profiler";
import { NET } from "./net-topology.js";
import { tempDir } from "./fixture-profile.js";

export const FETCH = join(process.cwd(), "replay", "target", "release", "pagepath-fetch");

export interface RunningReplay {
  out: string;
  /** origins.json: the name map and Chromium's flags. */
  nameMap: any;
  /** SIGTERM, then the exit code; the logs and fidelity.json are whole after it. */
  stop(): Promise<number | null>;
}

/**
 * A replay server for a recording: in the server namespace of topology `net` (10.200.1.1 and up),
 * or on loopback (127.0.1.1 and up, or --first-address in args) without one. Resolves once it
 * announces that every origin listens; rejects with ReplayServerExited if it exits first.
 */
export async function startReplay(recording: string, args: string[], net?: string): Promise<RunningReplay> {
  const out = join(tempDir("replay"), "out");
  const serve = [recording, "--out", out, ...args];
  if (!args.includes("--first-address")) serve.push("--first-address", net ? "10.200.1.1" : "127.0.1.1");
  const server = await startReplayServer(serve, net ? [NET, "exec", net, "server", "--"] : []);
  return { out, nameMap: JSON.parse(readFileSync(join(out, "origins.json"), "utf8")), stop: () => server.stop() };
}

/** A script that starts Debian's Chromium inside the client namespace of a topology. */
export function chromiumInClientNamespace(net: string): string {
  return chromiumInNamespace(tempDir("chromium-ns"), net, false);
}

/** Profiler options that load a page from a running replay, as the name map says. */
export function replayProfileOptions(replay: RunningReplay, executablePath: string): ProfileOptions {
  return replayChromiumOptions(replay.nameMap, executablePath, 30_000);
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

/** A synthetic recording (archive and bodies only) in a fresh temporary folder. */
export function synthetic(origin: string, resources: SyntheticResource[]): string {
  return writeSyntheticRecording(join(tempDir("synthetic"), "rec"), origin, resources);
}

/** Responses that went over the network (not from a cache) and have a body to compare. */
export function servedResponses(archive: ArchiveEntry[]): ArchiveEntry[] {
  return archive.filter((e) => e.fromCache === null && e.response !== null && e.body !== null);
}

/**
 * Holds what Chromium received from a replay to the recording: every recorded network response
 * fetched again, byte for byte, with the same status, over `protocol`, each host from its own
 * replay address. Returns how many responses were compared.
 */
export function assertReplayedLikeRecorded(recording: string, replayed: string, protocol: string): number {
  const original = servedResponses(readRecording(recording).archive);
  const again = readRecording(replayed);
  assert.equal(again.manifest.status, "complete", String(again.manifest.reason));
  const addresses = new Map<string, Set<string>>();
  let compared = 0;
  for (const e of original) {
    const got = servedResponses(again.archive).filter((x) => x.url === e.url && x.method === e.method);
    assert.ok(got.length > 0, `${e.url} was recorded but Chromium did not fetch it from the replay`);
    for (const g of got) {
      assert.equal(g.body!.sha256, e.body!.sha256, `${e.url}: the replayed body differs from the recorded one`);
      assert.equal(g.response!.protocol, protocol, `${e.url} came over ${g.response!.protocol}`);
      assert.equal(g.response!.status, e.response!.status, `${e.url}: status`);
      const host = new URL(e.url).host;
      addresses.set(host, (addresses.get(host) ?? new Set()).add((g.response!.remoteAddress ?? "").replace(/:\d+$/, "")));
      compared++;
    }
  }
  const all = [...addresses.values()].flatMap((set) => [...set]);
  assert.equal(new Set(all).size, addresses.size, `one address per host: ${JSON.stringify([...addresses].map(([h, a]) => [h, [...a]]))}`);
  for (const a of all) assert.match(a, /^10\.200\.1\.\d+$/);
  return compared;
}

/** GETs `paths` one after another on one HTTP/2 connection to a replay at `address`; their statuses. */
export async function h2Get(address: string, host: string, paths: string[]): Promise<number[]> {
  const session = connect(`https://${address}`, { servername: host, rejectUnauthorized: false });
  const statuses: number[] = [];
  try {
    for (const path of paths) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          let status = 0;
          const req = session.request({ ":path": path, ":authority": host });
          req.on("response", (h) => (status = Number(h[":status"])));
          req.on("error", reject).on("end", () => resolve(status)).resume();
          req.end();
        }),
      );
    }
  } finally {
    session.close();
  }
  return statuses;
}
