import { urlsOfEvents } from "./trace-intervals.js";

/**
 * Dedicated workers (HTML "run a worker"): their code runs on threads of their own, which the graph
 * does not hold. The trace names each worker's script when its thread starts
 * (TracingSessionIdForWorker); what a worker requests hangs off its script (rule `worker`), and
 * neither its script nor its requests hold the page's load event (measured on the fidelity
 * fixture's worker.html: load fired at 287 ms with the worker's script, held 300 ms by the server,
 * still loading).
 */

/** The URLs of the workers' scripts (urlKey), from the trace. */
export function workerUrls(trace: unknown[]): Set<string> {
  return urlsOfEvents(trace, "TracingSessionIdForWorker");
}
