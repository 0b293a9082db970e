/**
 * The median and mean a reproduction's report prints: pagepath's own (@pagepath/results), but NaN
 * where nothing was measured, which the reports print as "-" rather than failing the whole report.
 */
import { mean as meanOf, median as medianOf } from "@pagepath/results";

export const median = (xs: readonly number[]) => (xs.length === 0 ? NaN : medianOf(xs));
export const mean = (xs: readonly number[]) => (xs.length === 0 ? NaN : meanOf(xs));
