/** Which column a table is sorted by; kept by each table across redraws. */
export interface SortOrder {
  key: string;
  ascending: boolean;
}

/**
 * Fills `tr` with one header cell per column; a click sorts by that column, and a second click on
 * the sorted column reverses the order. `changed` redraws the table.
 */
export function sortableHeader<C extends { key: string; title: string }, D>(tr: d3.Selection<HTMLTableRowElement, D, d3.BaseType, unknown>, columns: C[], order: SortOrder, changed: () => void): void {
  tr.selectAll<HTMLTableCellElement, C>("th")
    .data(columns)
    .join("th")
    .attr("class", (c) => `${c.key}${c.key === order.key ? " sorted" : ""}`)
    .attr("data-dir", order.ascending ? " ▲" : " ▼")
    .text((c) => c.title)
    .on("click", (_, c) => {
      order.ascending = c.key === order.key ? !order.ascending : true;
      order.key = c.key;
      changed();
    });
}

/** Numbers by value, anything else as text, for the order of a sorted column. */
export function compareCells(a: number | string, b: number | string): number {
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
}
