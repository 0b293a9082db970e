/** The current view's SVG, standalone: the drawing carries its styles as attributes, not CSS. */
export function serialiseView(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const box = svg.getBBox();
  const viewport = svg.querySelector(".viewport");
  if (viewport) {
    // The zoomed view exports the whole graph, not the part of it on screen.
    copy.querySelector(".viewport")!.removeAttribute("transform");
    copy.setAttribute("viewBox", `${box.x - 10} ${box.y - 10} ${box.width + 20} ${box.height + 20}`);
    copy.setAttribute("width", String(Math.ceil(box.width + 20)));
    copy.setAttribute("height", String(Math.ceil(box.height + 20)));
  }
  return new XMLSerializer().serializeToString(copy);
}

export function download(name: string, blob: Blob): void {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** Browsers refuse canvases much above 16k pixels a side; big graphs are scaled down to fit. */
const MAX_CANVAS = 8192;

export async function renderPng(svgText: string, width: number, height: number): Promise<Blob> {
  const scale = Math.min(2, MAX_CANVAS / width, MAX_CANVAS / height);
  const img = new Image();
  img.src = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  URL.revokeObjectURL(img.src);
  return new Promise((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error("the canvas could not be encoded as PNG"))), "image/png"));
}
