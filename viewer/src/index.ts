export { startViewer, DEFAULT_HOST, DEFAULT_PORT, type ViewerOptions, type RunningViewer } from "./server/server.js";
export type * from "./server/api.js";
export { DOT_RANK_BUDGET } from "./server/layout.js";
export { findExperiments } from "./server/find-experiments.js";
