export { startViewer, DEFAULT_HOST, DEFAULT_PORT, type ViewerOptions, type RunningViewer } from "./server/server.js";
export type * from "./server/api.js";
export { BIG_GRAPH_NODES } from "./server/layout.js";
