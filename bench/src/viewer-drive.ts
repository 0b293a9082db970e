/**
 * Runs inside the viewer page (serialised by puppeteer, so it must not use anything from outside):
 * holds the mouse down on the graph canvas and, every animation frame for `seconds`, either drags
 * (pan) or turns the wheel (zoom), alternating every half second, the way a user explores a graph.
 * Returns the canvas's redraws per second, the longest gap between redraws, and how long the full
 * drawing took that follows once the movement stops.
 * `zoomedIn` first zooms about 30x into the centre, where labels are drawn; otherwise the whole graph is in view.
 */
export function driveZoomAndPan(seconds: number, zoomedIn: boolean): Promise<{ fps: number; worstMs: number; fullDrawMs: number }> {
  const canvas = document.querySelector("canvas.graph-canvas") as HTMLCanvasElement;
  const r = canvas.getBoundingClientRect();
  const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
  const wheel = (deltaY: number): boolean => canvas.dispatchEvent(new WheelEvent("wheel", { deltaY, clientX: cx, clientY: cy, bubbles: true, cancelable: true, view: window }));
  const mouse = (type: string, x: number, y: number, target: EventTarget): boolean =>
    target.dispatchEvent(new MouseEvent(type, { clientX: x, clientY: y, bubbles: true, cancelable: true, view: window, button: 0 }));
  const draws = (): number => Number(canvas.dataset.draws);
  (document.querySelector("#fit") as HTMLButtonElement).click();
  if (zoomedIn) for (let i = 0; i < 12; i++) wheel(-200);
  return new Promise((ok) => {
    requestAnimationFrame(() =>
      requestAnimationFrame((t0) => {
        const d0 = draws();
        let [frame, seen, lastDraw, worst] = [0, d0, t0, 0];
        mouse("mousedown", cx, cy, canvas);
        const tick = (now: number): void => {
          frame++;
          const d = draws();
          if (d !== seen) {
            worst = Math.max(worst, now - lastDraw);
            [seen, lastDraw] = [d, now];
          }
          if (now - t0 >= seconds * 1000) {
            mouse("mouseup", cx, cy, window);
            const fps = (d - d0) / ((now - t0) / 1000);
            // The settle timer is 120 ms; the full drawing comes in the frame after it.
            setTimeout(() => ok({ fps, worstMs: worst, fullDrawMs: Number(canvas.dataset.fullDrawMs) }), 600);
            return;
          }
          if (Math.floor(frame / 30) % 2 === 0) mouse("mousemove", cx + 150 * Math.sin(frame / 9), cy + 80 * Math.cos(frame / 9), window);
          else wheel(frame % 60 < 45 ? -25 : 25);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    );
  });
}
