export function ms(v: number | null | undefined): string {
  return v === null || v === undefined ? "–" : `${v.toFixed(1)} ms`;
}

export function bytes(v: number): string {
  if (v < 1024) return `${v} B`;
  if (v < 1024 * 1024) return `${(v / 1024).toFixed(1)} KB`;
  return `${(v / 1024 / 1024).toFixed(2)} MB`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function percent(v: number | null): string {
  return v === null ? "–" : `${v.toFixed(1)}%`;
}
