/**
 * An experiment's configurations: everything that sets a run apart except its site, its replication
 * and its network's grid point. So a configuration is a protocol stack (with its multipath scheduler),
 * server model and priority scheme on one family of networks, and its runs across the family's grid
 * points are comparable cells.
 */
import { planSchedulerKeys, planStacks, type ExperimentPlan } from "../experiment.js";
import { runSchedulerKey } from "../plan-schedulers.js";
import type { PriorityScheme, Protocol, RunResult, ServerModel, Transport } from "../run-result.js";
import { familyKey, familyLabel } from "./network-family.js";

export interface AnalysisConfiguration {
  /** Short and unique within the experiment: "h2/tcp · out-of-order · none · 2 paths rtt×5", "h3/mpquic ecf beta=1 · ...". */
  label: string;
  protocol: Protocol;
  transport: Transport;
  /** The multipath scheduler (CellKey's scheduler); absent over tcp and quic. */
  scheduler?: string;
  serverModel: ServerModel;
  priority: PriorityScheme;
  /** familyLabel of its networks. */
  family: string;
  /** familyKey of its networks: the full description. */
  familyKey: string;
  /** The plan's networks of the family, in plan order. */
  networks: string[];
}

export function configurationLabel(c: Pick<AnalysisConfiguration, "protocol" | "transport" | "scheduler" | "serverModel" | "priority" | "family">): string {
  return `${c.protocol}/${c.transport}${c.scheduler === undefined ? "" : ` ${c.scheduler}`} · ${c.serverModel} · ${c.priority} · ${c.family}`;
}

/** The plan's configurations: family by family (in the order their first network is listed), then stack, server model and priority in plan order. */
export function planConfigurations(plan: ExperimentPlan): AnalysisConfiguration[] {
  const families = new Map<string, { label: string; networks: string[] }>();
  for (const n of plan.networks) {
    const key = familyKey(n);
    const f = families.get(key) ?? { label: familyLabel(n), networks: [] };
    f.networks.push(n.name);
    families.set(key, f);
  }
  return [...families].flatMap(([key, f]) =>
    planStacks(plan).flatMap((stack) =>
      planSchedulerKeys(plan, stack.transport).flatMap((scheduler) =>
        plan.serverModels.flatMap((serverModel) =>
          plan.priorities.map((priority) => {
            const parts = { ...stack, ...(scheduler === undefined ? {} : { scheduler }), serverModel, priority, family: f.label };
            return { label: configurationLabel(parts), ...parts, familyKey: key, networks: f.networks };
          }),
        ),
      ),
    ),
  );
}

/** A run's configuration: its stack and scheduler, server model and priority, on its network's family. */
export function configurationOfRun(run: RunResult): string {
  const c = run.configuration;
  return configurationLabel({ protocol: c.protocol, transport: c.transport, scheduler: runSchedulerKey(c), serverModel: c.serverModel, priority: c.priority, family: familyLabel(c.network) });
}
