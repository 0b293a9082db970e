import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { quicSchedulers, runSimulation, specNetwork, networkSpec } from "@pagepath/runner";
import type { RunConfiguration } from "@pagepath/results";
import { tempDir } from "@pagepath/temp-dirs";
import { replayed } from "./runs-api.js";
import { sendError, sendJson } from "./static-files.js";

/** The what-if a key names: what the timeline's controls change, each with its range. */
const KNOBS = {
  rate: { min: 0.05, max: 10_000, fallback: 10 },
  rtt: { min: 0, max: 5_000, fallback: 40 },
  paths: { min: 1, max: 8, fallback: 1 },
  loss: { min: 0, max: 0.5, fallback: 0 },
} as const;
/** HTTP/3 over QUIC or multipath QUIC; HTTP/2 and HTTP/1.1 (six connections an origin) over TCP. */
const PROTOCOLS = { h3: ["quic", "mpquic"], h2: ["tcp"], h1: ["tcp"] } as const;

/** A what-if's key: its settings as a query string, which the timeline keeps in its URL. */
export const WHAT_IF_PREFIX = "what-if?";

/**
 * GET /api/what-if?file=REL&rate=MBIT&rtt=MS[&paths=N][&loss=P][&protocol=h3|h2|h1][&transport=quic|mpquic|tcp][&scheduler=NAME]:
 * the graph's page simulated in virtual time (pagepath simulate: the emulated browser, the replay
 * servers, tquic and smoltcp's TCP over the link model) under those settings, as a run the timeline draws like a
 * replayed one, keyed by its settings. Nothing is written in the served directory.
 */
export async function whatIfApi(res: ServerResponse, params: URLSearchParams, graphFile: (rel: string) => Promise<string | null>): Promise<void> {
  const file = params.get("file");
  if (!file) return sendError(res, 400, "expected ?file=<path of a graph relative to the served directory>");
  const graphPath = await graphFile(file);
  if (graphPath === null) return sendError(res, 403, `${file}: outside the served directory`);
  const knob = (name: keyof typeof KNOBS): number => {
    const { min, max, fallback } = KNOBS[name];
    const raw = params.get(name);
    const v = raw === null ? fallback : Number(raw);
    if (!(v >= min && v <= max)) throw new RangeError(`${name}=${raw}: expected a number from ${min} to ${max}`);
    return v;
  };
  let settings;
  try {
    const protocol = params.get("protocol") ?? "h3";
    if (!Object.hasOwn(PROTOCOLS, protocol)) throw new RangeError(`protocol=${protocol}: expected ${Object.keys(PROTOCOLS).join(", ")}`);
    const carriers: readonly string[] = PROTOCOLS[protocol as keyof typeof PROTOCOLS];
    const transport = params.get("transport") ?? (protocol !== "h3" ? "tcp" : knob("paths") > 1 ? "mpquic" : "quic");
    if (!carriers.includes(transport)) throw new RangeError(`transport=${transport}: the simulator carries ${protocol} over ${carriers.join(" or ")}`);
    if (transport === "tcp" && knob("paths") > 1) throw new RangeError(`paths=${knob("paths")}: over TCP one path; the simulator has no MPTCP`);
    const scheduler = params.get("scheduler");
    const names = quicSchedulers().schedulers.map((s) => s.name);
    if (scheduler !== null && !names.includes(scheduler)) throw new RangeError(`scheduler=${scheduler}: expected one of ${names.join(", ")}`);
    settings = { rate: knob("rate"), rtt: knob("rtt"), paths: Math.round(knob("paths")), loss: knob("loss"), protocol: protocol as RunConfiguration["protocol"], transport: transport as RunConfiguration["transport"], scheduler };
  } catch (e) {
    return sendError(res, 400, (e as Error).message);
  }
  const key = WHAT_IF_PREFIX + [...params].filter(([k]) => k !== "file").map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  const network = specNetwork(networkSpec(`${settings.rate}mbit-${settings.rtt}ms`, { paths: settings.paths, rateMbit: settings.rate, rttMs: settings.rtt, loss: settings.loss }));
  const scheduler = settings.transport === "mpquic" ? { name: settings.scheduler ?? quicSchedulers().default, options: {} } : null;
  const work = tempDir("what-if");
  try {
    const { result, simulation } = await runSimulation({
      graphFile: graphPath,
      configuration: {
        protocol: settings.protocol,
        transport: settings.transport,
        serverModel: "out-of-order",
        priority: "none",
        chunkSizeBytes: 16_384,
        connectionsPerOrigin: settings.protocol === "h1" ? 6 : 1,
        emulation: { preloader: true, cpuFactor: 1, waitFor: "load" },
        scheduler,
      },
      network,
      seed: 1,
      timeoutMs: 120_000,
      serverOut: join(work, "servers"),
      resultFile: join(work, "run.json"),
    });
    sendJson(res, { ...replayed(null, key, result, true), simulation: { virtualMs: simulation.virtualMs, wallMs: simulation.wallMs } });
  } catch (e) {
    sendError(res, 422, `${file}: cannot simulate it: ${(e as Error).message}`);
  }
}

/** GET /api/what-if/schedulers: the multipath QUIC schedulers a what-if can run, as pagepath-server lists them. */
export function whatIfSchedulersApi(res: ServerResponse): void {
  const q = quicSchedulers();
  sendJson(res, { default: q.default, names: q.schedulers.map((s) => s.name) });
}
