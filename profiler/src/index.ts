export * from "./recording.js";
export {
  recordPage,
  DEFAULT_STOP,
  FULL_INSTRUMENTATION,
  NO_INSTRUMENTATION,
  type Instrumentation,
  type ProfileOptions,
  type ProfileResult,
} from "./record-page.js";
export { profileBatch, type BatchEvent, type BatchItemResult } from "./batch.js";
export { readRecording, readManifest, readArchive, readBody, readLayout, writeRecording, listRecordings, RecordingError, FILES } from "./recording-store.js";
export { captureLayout, MAX_LAYOUT_TEXTS, type PageLayout, type LayoutBlock, type LayoutText, type LayoutImage, type Rect } from "./layout.js";
export { traceEvents, traceFileText, type TraceSelection } from "./trace-file.js";
export { toHar } from "./har.js";
export { requestChains } from "./archive.js";
export { parseUrlList, checkUrl } from "./url-list.js";
export { recordingName } from "./slug.js";
export { parseNetwork, parseDevice, parseCpuThrottle, NO_CONDITIONS } from "./conditions.js";
export { DEFAULT_CHROMIUM, PROFILE_DIR_PREFIX, launchChromium, type LaunchedChromium } from "./chromium.js";
export { REDACTED, CREDENTIAL_HEADERS } from "./redact.js";
export { estimateServerDelays } from "./server-delay.js";
export { StopCondition } from "./stop-condition.js";
export { TOOL_VERSION } from "./version.js";
export { importHar, type Imported } from "./har-import.js";
export { ImportError } from "./imported-recording.js";
export { importMahimahi, REQUEST_RESPONSE, type ArchiveFile } from "./mahimahi-import.js";
export { importWpr } from "./wpr-import.js";
export { toMahimahi } from "./mahimahi-export.js";
export { toWpr } from "./wpr-export.js";
export { requestPhases, layEndToEnd, PHASE_NAMES, type PhaseName, type PhaseSpan, type RequestPhases } from "./request-phases.js";
