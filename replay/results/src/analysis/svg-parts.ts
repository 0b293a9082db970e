/**
 * Pieces of the standalone SVG documents the results package draws (accuracy plots, analysis
 * heatmaps), without dependencies. Coordinates are rounded so the same data always gives the same bytes.
 */
export const SVG_FONT = `font-family="sans-serif"`;

export function svgDocument(width: number, height: number, title: string, subtitle: string, body: string[]): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    svgText(width / 2, 24, title, "middle", 15),
    svgText(width / 2, 44, subtitle, "middle", 12),
    ...body,
    `</svg>`,
    "",
  ].join("\n");
}

export function svgText(x: number, y: number, s: string, anchor: "start" | "middle" | "end", size: number, extra = ""): string {
  return `<text x="${svgNumber(x)}" y="${svgNumber(y)}" text-anchor="${anchor}" font-size="${size}" ${SVG_FONT}${extra}>${escapeXml(s)}</text>`;
}

/** Coordinates to two decimals: enough for a screen, and the same digits on every machine. */
export function svgNumber(v: number): string {
  return String(Math.round(v * 100) / 100);
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The smallest of 1, 2, 5 times a power of ten at or above v (v > 0). */
export function niceCeiling(v: number): number {
  const power = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((f) => f * power).find((c) => c >= v)!;
}
