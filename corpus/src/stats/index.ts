export {
  siteMetrics,
  isNetworkFetch,
  mimeClass,
  isCdnHost,
  MIME_CLASSES,
  INITIATOR_CLASSES,
  PARENT_KINDS,
  PATH_PARTS,
  type SiteMetrics,
  type ResourceMetrics,
  type RecordingLike,
  type EntryLike,
  type GraphLike,
  type MimeClass,
  type InitiatorClass,
  type ParentKind,
  type PathPart,
} from "./site-metrics.js";
export {
  quantile,
  cdf,
  distribution,
  summarise,
  type CdfPoint,
  type Distribution,
  type Statistic,
  type Unit,
  type SeriesSummary,
  type MeasureSummary,
  type MeasureId,
  type Summary,
} from "./summary.js";
export { THESIS, thesisValues, type ThesisValue } from "./thesis.js";
export { cdfSvg, type CdfPlot } from "./svg-plot.js";
export { statsReport, type StatsReport } from "./report.js";
