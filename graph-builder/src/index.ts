export * from "./graph.js";
export { buildGraph, type RecordingInput } from "./build-graph.js";
export { validateGraph, readGraphFile } from "./validate-graph.js";
export { toDot, type DotOptions } from "./dot.js";
export { criticalPath, emulatedView } from "./critical-path.js";
export { assignPriorities } from "./priorities.js";
export { loadRecording } from "./load-recording.js";
