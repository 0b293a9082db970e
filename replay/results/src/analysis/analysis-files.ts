/** The files an analysis is written as, named in one place for the writer and the summary's links. */
export const ANALYSIS_FILES = { summary: "summary.md", json: "analysis.json", csv: "runs.csv" } as const;

export function comparisonPlotFiles(comparisonId: string): { reduction: string; equalOrBetter: string; cdf: string } {
  return { reduction: `${comparisonId}-reduction.svg`, equalOrBetter: `${comparisonId}-equal-or-better.svg`, cdf: `${comparisonId}-cdf.svg` };
}
