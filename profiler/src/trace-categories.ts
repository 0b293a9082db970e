/**
 * Trace categories that attribute the page's work: HTML parsing, script compile and evaluation,
 * function calls, timers installed and fired, event dispatch, style sheet parsing, XHR state
 * changes and resource requests (devtools.timeline), their stack traces (.stack), paint and LCP
 * marks (loading), and the trace's own metadata (thread and process names).
 */
export const TRACE_CATEGORIES = [
  "-*",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.stack",
  "v8.execute",
  "blink.user_timing",
  "loading",
  "__metadata",
];
