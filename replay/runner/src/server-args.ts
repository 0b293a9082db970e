import type { RunConfiguration, SchedulerChoice } from "@pagepath/results";

/** pagepath-server options that serve a run's configuration (docs/formats/replay-server.md). */
export function serverArgs(c: RunConfiguration, graphFile: string, seed: number): string[] {
  const protocol = c.protocol;
  const priority = c.priority === "depth" ? null : c.priority;
  if (priority === null) throw new Error(`--priority ${c.priority}: the replay servers cannot order responses by depth rank yet`);
  const args = ["--protocol", protocol, "--transport", c.transport, "--model", c.serverModel, "--priority", priority];
  args.push("--chunk-bytes", String(c.chunkSizeBytes), "--seed", String(seed), "--graph", graphFile);
  if (c.transport === "mpquic" && c.scheduler) args.push(...schedulerArgs(c.scheduler));
  if (c.preemption) args.push("--preemption");
  args.push(...transportKnobArgs(c));
  return args;
}

/**
 * `--congestion NAME --tail-loss-probes on|off` as the configuration asks; nothing for what it
 * leaves unsaid, which the server then runs by default (cubic, on).
 */
export function transportKnobArgs(c: Pick<RunConfiguration, "congestion" | "tailLossProbes">): string[] {
  const args = c.congestion === undefined ? [] : ["--congestion", c.congestion];
  if (typeof c.tailLossProbes === "boolean") args.push("--tail-loss-probes", c.tailLossProbes ? "on" : "off");
  return args;
}

/**
 * `--backup-peer ADDRESS` for each backup path of a multipath QUIC run, by the client address the
 * path starts from; MPTCP's backups are the topology's own endpoint flags, and one path has none.
 */
export function backupPeerArgs(c: RunConfiguration, clientAddresses: string[]): string[] {
  if (c.transport !== "mpquic") return [];
  return c.network.paths.flatMap((p, i) => (p.backup ? ["--backup-peer", clientAddresses[i]!] : []));
}

/** `--scheduler NAME --scheduler-opt KEY=VALUE ...`, as pagepath-server and pagepath-browser take it. */
export function schedulerArgs(s: SchedulerChoice): string[] {
  return ["--scheduler", s.name, ...Object.entries(s.options).flatMap(([k, v]) => ["--scheduler-opt", `${k}=${v}`])];
}
