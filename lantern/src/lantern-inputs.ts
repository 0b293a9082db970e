import * as Trace from "@paulirish/trace_engine";
import type { RecordingTrace } from "./read-trace.js";

type Graph = ReturnType<typeof Trace.LanternComputationData.createGraph>;
type NetworkAnalysis = NonNullable<ReturnType<typeof Trace.Lantern.Core.NetworkAnalyzer.analyze>>;

/** What Lantern builds once from a recording's trace and simulates under any number of conditions. */
export interface LanternInputs {
  graph: Graph;
  processedNavigation: Trace.Lantern.Types.Simulation.ProcessedNavigation;
  /** Lantern's reading of the recorded network: each origin's RTT above the smallest, and its server response time. */
  networkAnalysis: NetworkAnalysis;
  /** The recording's FCP had no LCP candidate after it: Lantern cannot predict LCP, nor Interactive (which needs LCP). */
  hasLcp: boolean;
  warnings: string[];
}

/**
 * Parses the trace with the trace engine's handlers Lantern reads (as the DevTools Performance panel
 * does before it runs Lantern) and builds Lantern's network requests, dependency graph and observed
 * network analysis for the main frame's first navigation.
 */
export async function lanternInputs(recording: RecordingTrace): Promise<LanternInputs> {
  try {
    return await inputsOf(recording);
  } catch (e) {
    // The engine's own errors ("missing metric: FCP") say what, not where.
    throw new Error(`${recording.file}: ${(e as Error).message}`);
  }
}

async function inputsOf(recording: RecordingTrace): Promise<LanternInputs> {
  const H = Trace.Handlers.ModelHandlers;
  const model = Trace.TraceModel.Model.createWithSubsetOfHandlers({ Meta: H.Meta, NetworkRequests: H.NetworkRequests, Workers: H.Workers, PageLoadMetrics: H.PageLoadMetrics });
  const events = recording.traceEvents as Trace.Types.Events.Event[];
  await model.parse(events);
  const data = model.parsedTrace()?.data;
  if (!data) throw new Error("the trace engine could not parse the trace");
  const frameId = data.Meta.mainFrameId;
  const navigations = data.Meta.navigationsByFrameId.get(frameId) ?? [];
  const navigation = navigations[0];
  if (!navigation) throw new Error("the trace has no navigationStart for the main frame");
  const warnings: string[] = [];
  if (navigations.length > 1) warnings.push(`the main frame navigated ${navigations.length} times; Lantern simulates the first navigation only`);
  const end = navigations[1]?.ts ?? Number.POSITIVE_INFINITY;
  // Lantern's trace type and the engine's event type are the same objects, typed differently.
  const trace = { traceEvents: events.filter((e) => e.ts >= navigation.ts && e.ts < end) } as unknown as Trace.Lantern.Types.Trace;
  const requests = Trace.LanternComputationData.createNetworkRequests(trace, data, navigation.ts, end);
  if (requests.length === 0) throw new Error("the trace has no network requests after the navigation (no ResourceSendRequest events)");
  const graph = Trace.LanternComputationData.createGraph(requests, trace, data);
  const processedNavigation = Trace.LanternComputationData.createProcessedNavigation(data, frameId, navigation);
  const networkAnalysis = Trace.Lantern.Core.NetworkAnalyzer.analyze(requests);
  if (!networkAnalysis) throw new Error("Lantern could not analyse the recorded network (no request with timing)");
  const c = recording.manifest.conditions;
  if (c.cpuThrottlingRate !== 1 || c.network !== null) {
    warnings.push("the recording was made under throttled conditions; Lantern takes its CPU task durations and server response times from it as they were");
  }
  if (recording.manifest.status !== "complete") warnings.push(`the recording is incomplete: ${recording.manifest.reason ?? "no reason given"}`);
  const hasLcp = processedNavigation.timestamps.largestContentfulPaint !== undefined;
  if (!hasLcp) warnings.push("the recording has no LCP candidate: Lantern predicts neither LCP nor Interactive (which it bounds below by LCP)");
  return { graph, processedNavigation, networkAnalysis, hasLcp, warnings };
}
