import type { RequestPathBytes } from "./run-result.js";

/**
 * What the schema cannot say of a request's `paths`: each names a path of the network, once, in
 * path order, and its bytes left the server no later than its last did.
 */
export function requestPathProblems(paths: RequestPathBytes[] | null | undefined, pathCount: number, at: string): string[] {
  const problems: string[] = [];
  paths?.forEach((p, j) => {
    if (p.path >= pathCount) problems.push(`${at}/${j}/path: there is no path ${p.path} (the network has ${pathCount})`);
    const before = paths[j - 1];
    if (before && p.path === before.path) problems.push(`${at}/${j}/path: path ${p.path} is listed twice`);
    else if (before && p.path < before.path) problems.push(`${at}/${j}/path: ${p.path} comes after ${before.path} (entries are in path order)`);
    if (p.lastMs < p.firstMs) problems.push(`${at}/${j}/lastMs: ${p.lastMs} is before its firstMs ${p.firstMs}`);
  });
  return problems;
}
