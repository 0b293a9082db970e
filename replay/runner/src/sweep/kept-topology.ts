import type { NetworkConfig } from "@pagepath/results";
import { networkReconfigure, networkUp, topologyDown, type Topology } from "../topology.js";

/**
 * One topology per worker, kept up from one run to the next: bringing one up and down costs about
 * 150 ms a run, giving a kept one its next run's links 25 ms (`pagepath net reconfigure`, which
 * builds them as a fresh topology would: docs/formats/topology.md, Reconfiguring). A network of
 * another shape (paths, backups), a refused reconfiguration or a run that did not end well gets a
 * topology brought up afresh.
 */
const kept = new Map<string, string>();

/** What a reconfiguration cannot change. */
function shapeOf(network: NetworkConfig): string {
  return JSON.stringify(network.paths.map((p) => Boolean(p.backup)));
}

/** Topology `name` with `network`'s links and `seed`: the kept one reconfigured, or a new one. */
export async function keptTopology(name: string, network: NetworkConfig, seed: number, baseDir: string): Promise<Topology> {
  const shape = kept.get(name);
  if (shape === shapeOf(network)) {
    try {
      return await networkReconfigure(name, network, seed, baseDir);
    } catch {
      // Taken down meanwhile (a worker that gave its runs back), or something still runs in it:
      // a fresh one is what a run would have had anyway.
    }
  }
  await releaseTopology(name);
  const topology = await networkUp(name, network, seed, baseDir);
  kept.set(name, shapeOf(network));
  return topology;
}

/** Takes topology `name` down (also one that was never kept: a failed bring-up's remains). */
export async function releaseTopology(name: string): Promise<void> {
  kept.delete(name);
  await topologyDown(name);
}

/** Takes every kept topology down: at the end of a local sweep. */
export async function releaseKeptTopologies(): Promise<void> {
  for (const name of [...kept.keys()]) await releaseTopology(name);
}
