export * from "./graph.js";
export { buildGraph, type RecordingInput } from "./build-graph.js";
export { validateGraph, readGraphFile } from "./validate-graph.js";
export { toDot, type DotOptions } from "./dot.js";
export { criticalPath, emulatedView } from "./critical-path.js";
export { assignPriorities } from "./priorities.js";
export { loadRecording } from "./load-recording.js";
export { buildMany, type BuildResult } from "./build-batch.js";
export { canonicalGraph, type CanonicalGraph } from "./canonical.js";
