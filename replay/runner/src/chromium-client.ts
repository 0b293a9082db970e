import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CHROMIUM, NO_CONDITIONS, recordPage, requestPhases, writeRecording, type ArchiveEntry, type Instrumentation, type ProfileOptions, type Recording } from "@pagepath/profiler";
import { lcpElementSummary, type ConnectionRecord, type RequestRecord, type RunConfiguration } from "@pagepath/results";
import { tempDir } from "@pagepath/temp-dirs";
import { NET_BINARY, requireBinary } from "./binaries.js";
import type { ClientReport } from "./client-report.js";
import type { Topology } from "./topology.js";

export interface ChromiumClientOptions {
  url: string;
  /** The replay's origins.json, parsed: host resolver rules, SPKI hash, Chromium flags. */
  nameMap: { hostResolverRules: string; spkiHash: string; chromiumFlags: string[] };
  configuration: RunConfiguration;
  topology: Topology;
  timeoutMs: number;
  /** What the profiler records of the load (default: everything, as the graph was recorded). */
  instrument?: Instrumentation;
  /** Write the recording of the load to this folder (recording.md), to build a graph of the replay. */
  keepRecording?: string;
}

/**
 * Debian's Chromium, cold (a fresh profile), in the topology's client namespace, loading the page
 * from the replay servers with the same instrumentation the graph was recorded with, so both
 * clients' computations cost what the graph says. MPTCP runs go through mptcpize.
 */
export async function runChromiumClient(o: ChromiumClientOptions): Promise<ClientReport> {
  const dir = tempDir("chromium-client");
  try {
    const chromium = chromiumInNamespace(dir, o.topology.name, o.configuration.transport === "mptcp");
    const { recording } = await recordPage(o.url, { ...replayChromiumOptions(o.nameMap, chromium, o.timeoutMs), instrument: o.instrument });
    if (o.keepRecording) writeRecording(o.keepRecording, recording);
    return chromiumReport(recording, o.configuration);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A script in `dir` that runs Debian's Chromium in topology `net`'s client namespace, through mptcpize for MPTCP. */
export function chromiumInNamespace(dir: string, net: string, mptcp: boolean): string {
  const wrapper = join(dir, "chromium");
  writeFileSync(wrapper, `#!/bin/sh\nexec "${requireBinary(NET_BINARY)}" exec "${net}" client -- ${mptcp ? "mptcpize run " : ""}"${DEFAULT_CHROMIUM}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

/** Profiler options that load a page from a replay as its name map says, stopping at `capMs`. */
export function replayChromiumOptions(nameMap: ChromiumClientOptions["nameMap"], executablePath: string, capMs: number): ProfileOptions {
  const own = (f: string) => f.startsWith("--host-resolver-rules=") || f.startsWith("--ignore-certificate-errors-spki-list=");
  return {
    executablePath,
    hostResolverRules: nameMap.hostResolverRules,
    ignoreCertificateSpki: [nameMap.spkiHash],
    extraArgs: nameMap.chromiumFlags.filter((f) => !own(f)),
    stop: { quietMs: 1000, capMs },
    conditions: NO_CONDITIONS,
    redact: true,
  };
}

/** What a Chromium recording tells of a run: completion and paint times, fetches, connections. */
export function chromiumReport(recording: Omit<Recording, "bodies"> | Recording, configuration: RunConfiguration): ClientReport {
  const m = recording.manifest;
  const t0 = m.lifecycle.navigationStartMonotonic;
  const ms = (s: number | null) => (s === null || t0 === null ? null : round((s - t0) * 1000));
  const network = recording.archive.filter((e) => e.fromCache === null && !e.url.startsWith("data:"));
  const requests: RequestRecord[] = network.map((e) => ({
    url: e.url,
    nodeId: null,
    status: e.response?.status ?? null,
    bodyBytes: e.sizes.bodySize,
    // When the network stack started it (after Chromium's own request scheduling, as the emulated
    // browser's start is), not when the page asked for it.
    startMs: Math.max(0, ms(e.response?.timing?.requestTime ?? e.times.start) ?? 0),
    endMs: e.times.end === null ? null : Math.max(0, ms(e.times.end)!),
    connection: e.response?.connectionId && e.response.connectionId !== "0" ? `chromium-${e.response.connectionId}` : null,
    // Each hop is a record of its own, so its own timing; clamped at 0 as startMs is.
    phases: t0 === null ? null : requestPhases(e, (s) => Math.max(0, ms(s)!)),
  }));
  const loadMissing = m.lifecycle.load === null;
  const stalled = m.status !== "complete" || loadMissing;
  return {
    status: stalled ? "incomplete" : "ok",
    error: stalled ? `Chromium's load ${loadMissing ? "never fired" : "ended early"}: ${m.reason ?? m.stoppedBy}` : null,
    startedAt: m.lifecycle.navigationStartWallTime === null ? m.startedAt : new Date(m.lifecycle.navigationStartWallTime * 1000).toISOString(),
    metrics: {
      domContentLoadedMs: m.lifecycle.domContentLoaded,
      loadMs: m.lifecycle.load,
      graphCompleteMs: null,
      // The recording's paints: the same zero as load (the main document's request).
      firstContentfulPaintMs: m.lifecycle.firstContentfulPaint,
      largestContentfulPaintMs: m.lifecycle.largestContentfulPaint,
      largestContentfulPaintMissing: m.lifecycle.largestContentfulPaint === null ? m.lifecycle.largestContentfulPaintMissing ?? null : null,
      largestContentfulPaintElement: m.lifecycle.largestContentfulPaint === null ? null : lcpElementSummary(m.lifecycle.largestContentfulPaintElement),
    },
    nodeTimings: null,
    connections: connectionsOf(network, configuration, ms),
    requests,
    warnings: [],
    versions: { chromium: m.browser.product },
  };
}

/** Chromium's connections as its network log shows them: per-connection bytes are not in it. */
function connectionsOf(archive: ArchiveEntry[], c: RunConfiguration, ms: (s: number | null) => number | null): ConnectionRecord[] {
  const byId = new Map<string, ConnectionRecord>();
  for (const e of archive) {
    const r = e.response;
    if (!r?.connectionId || r.connectionId === "0") continue;
    const protocol = r.protocol === "h2" ? "h2" : r.protocol === "h3" ? "h3" : "h1";
    // Chromium has no multipath QUIC (runReplay refuses mpquic for it): its HTTP/3 is QUIC.
    const transport = protocol === "h3" ? "quic" : c.transport === "mptcp" ? "mptcp" : "tcp";
    const connect = r.timing && r.timing.connectStart >= 0 ? ms(r.timing.requestTime + r.timing.connectStart / 1000) : null;
    const opened = Math.max(0, connect ?? ms(e.times.start) ?? 0);
    const id = `chromium-${r.connectionId}`;
    const known = byId.get(id);
    if (known) known.openedMs = Math.min(known.openedMs, opened);
    else byId.set(id, { id, origin: new URL(e.url).origin, protocol, transport, openedMs: opened, closedMs: null, paths: [] });
  }
  return [...byId.values()];
}

const round = (x: number) => Math.round(x * 1000) / 1000;
