/**
 * One rendering of a renderer main thread's frames, as the trace's Long Animation Frames events
 * (`AnimationFrame` async begin/end, `AnimationFrame::Render` inside it, and
 * `AnimationFrame::Presentation` naming its id) give it: the frame begins with the first task
 * after the previous rendering (a script, a DOMContentLoaded handler), renders, and is presented
 * by the compositor later. Times in ms since navigation start.
 */
export interface AnimationFrame {
  start: number;
  /** When its rendering (rAF callbacks, style, layout) began; null when the trace shows none. */
  render: number | null;
  /** When the compositor presented it: paint marks (FCP, LCP) are presentation times. */
  presented: number | null;
}

/** The trace events animationFrames reads, on the renderer main threads. */
export const ANIMATION_FRAME_EVENTS = new Set(["AnimationFrame", "AnimationFrame::Render", "AnimationFrame::Presentation"]);

type FrameEvent = { name: string; ph: string; ts: number; pid: number; tid: number; args?: Record<string, any> };

/**
 * The animation frames of the renderer main threads' `events` (ANIMATION_FRAME_EVENTS, as
 * mainThreadTrace collects them), sorted by start; `ms` turns a trace time into ms since
 * navigation start. A frame's `AnimationFrame` begin and end come on its thread in sequence, so a
 * `Render` begin belongs to the frame open on that thread. Pure.
 */
export function animationFrames(events: FrameEvent[], ms: (us: number) => number): AnimationFrame[] {
  const byId = new Map<string, AnimationFrame>();
  const open = new Map<string, AnimationFrame>();
  // A trace need not be in time order; a stable sort keeps a begin and end of one time in theirs.
  for (const e of [...events].sort((a, b) => a.ts - b.ts)) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.name === "AnimationFrame" && e.ph === "b" && typeof e.args?.id === "string") {
      const frame: AnimationFrame = { start: ms(e.ts), render: null, presented: null };
      byId.set(`${e.pid}:${e.args.id}`, frame);
      open.set(thread, frame);
    } else if (e.name === "AnimationFrame" && e.ph === "e") {
      open.delete(thread);
    } else if (e.name === "AnimationFrame::Render" && e.ph === "b") {
      const frame = open.get(thread);
      if (frame && frame.render === null) frame.render = ms(e.ts);
    } else if (e.name === "AnimationFrame::Presentation" && typeof e.args?.id === "string") {
      const frame = byId.get(`${e.pid}:${e.args.id}`);
      if (frame) frame.presented = ms(e.ts);
    }
  }
  return [...byId.values()].sort((a, b) => a.start - b.start);
}
