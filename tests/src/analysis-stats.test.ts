/**
 * The special functions and significance tests behind `pagepath analyze`, against published values:
 * statistical tables (F and t critical values), textbook examples, and closed forms.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fDistributionUpperTail, logGamma, normalCdf, oneWayAnova, regularizedIncompleteBeta, sampleStandardDeviation, wilcoxonSignedRank } from "@pagepath/results";

function near(actual: number | undefined, expected: number, tolerance: number, what: string): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected} ± ${tolerance}`);
}

describe("special functions", () => {
  it("log-gamma matches Γ's known values", () => {
    near(logGamma(1), 0, 1e-13, "ln Γ(1)");
    near(logGamma(2), 0, 1e-13, "ln Γ(2)");
    near(logGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-13, "ln Γ(1/2) = ln √π");
    near(logGamma(10), Math.log(362880), 1e-12, "ln Γ(10) = ln 9!");
    near(logGamma(0.1), 2.252712651734206, 1e-12, "ln Γ(0.1)");
    near(logGamma(100), 359.1342053695754, 1e-10, "ln Γ(100)");
    near(logGamma(1000.5), 5908.674175848678, 1e-9, "ln Γ(1000.5)");
    assert.throws(() => logGamma(0), /above 0/);
  });

  it("the regularized incomplete beta function matches its closed forms and symmetry", () => {
    near(regularizedIncompleteBeta(0.3, 1, 1), 0.3, 1e-14, "I_x(1, 1) = x");
    near(regularizedIncompleteBeta(0.3, 4, 1), 0.3 ** 4, 1e-14, "I_x(a, 1) = x^a");
    near(regularizedIncompleteBeta(0.3, 1, 3), 1 - 0.7 ** 3, 1e-14, "I_x(1, b) = 1 - (1 - x)^b");
    // Binomial tail: I_x(2, 3) = P(at least 2 successes of 4 at p = x).
    near(regularizedIncompleteBeta(0.3, 2, 3), 6 * 0.09 * 0.49 + 4 * 0.027 * 0.7 + 0.0081, 1e-14, "I_0.3(2, 3)");
    near(regularizedIncompleteBeta(0.5, 7.5, 7.5), 0.5, 1e-13, "I_1/2(a, a) = 1/2");
    // The arcsine distribution: I_x(1/2, 1/2) = (2/π) asin √x.
    near(regularizedIncompleteBeta(0.2, 0.5, 0.5), (2 / Math.PI) * Math.asin(Math.sqrt(0.2)), 1e-12, "I_0.2(1/2, 1/2)");
    near(regularizedIncompleteBeta(0.7, 50, 30), 0.9207207761763279, 1e-11, "I_0.7(50, 30), both sides of the continued fraction's switch");
    assert.equal(regularizedIncompleteBeta(0, 2, 3), 0);
    assert.equal(regularizedIncompleteBeta(1, 2, 3), 1);
    assert.throws(() => regularizedIncompleteBeta(1.5, 2, 3), /from 0 to 1/);
  });

  it("F and t critical values from the tables give their significance levels", () => {
    near(fDistributionUpperTail(4.96, 1, 10), 0.05, 2e-4, "F(1, 10) = 4.96");
    near(fDistributionUpperTail(10.04, 1, 10), 0.01, 2e-5, "F(1, 10) = 10.04");
    near(fDistributionUpperTail(3.49, 2, 20), 0.05, 2e-4, "F(2, 20) = 3.49");
    near(fDistributionUpperTail(3.70, 5, 30), 0.01, 2e-5, "F(5, 30) = 3.70");
    // A two-sided t test is F(1, ν) of t²: t(10) = 2.228 and t(1) = 12.706 at the 5% level.
    near(fDistributionUpperTail(2.228 ** 2, 1, 10), 0.05, 5e-5, "t(10) = 2.228");
    near(fDistributionUpperTail(12.706 ** 2, 1, 1), 0.05, 5e-5, "t(1) = 12.706");
    near(fDistributionUpperTail(0, 3, 7), 1, 0, "F = 0");
  });

  it("the normal CDF matches the standard normal table, in the tails too", () => {
    assert.equal(normalCdf(0), 0.5);
    near(normalCdf(1.959963985), 0.975, 1e-10, "Φ(1.96)");
    near(normalCdf(2.5758), 0.9949995762622214, 1e-13, "Φ(2.5758)");
    near(normalCdf(-1), 0.15865525393145707, 1e-13, "Φ(-1)");
    near(normalCdf(-3), 0.0013498980316301, 1e-15, "Φ(-3)");
    near(normalCdf(-6) / 9.865876450376946e-10, 1, 1e-10, "Φ(-6), relative");
    near(normalCdf(-10) / 7.61985302416047e-24, 1, 1e-9, "Φ(-10), relative");
  });
});

describe("significance tests", () => {
  it("Wilcoxon: Hollander and Wolfe's depression example (R's wilcox.test) has V = 40", () => {
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const w = wilcoxonSignedRank(x.map((v, i) => v - y[i]!))!;
    assert.equal(w.statistic, 40);
    assert.equal(w.n, 9);
    // Normal approximation with continuity correction: z = (40 - 22.5 - 0.5) / √71.25.
    near(w.z, 17 / Math.sqrt(71.25), 1e-12, "z");
    near(w.pValue, 0.04401098401295143, 1e-6, "two-sided p");
  });

  it("Wilcoxon: Darwin's Zea mays differences (Fisher) give W+ = 96 of 120, p ≈ 0.044", () => {
    const w = wilcoxonSignedRank([6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75])!;
    assert.equal(w.statistic, 120 - 24);
    near(w.pValue, 0.043772323763041174, 1e-6, "two-sided p (normal approximation)");
  });

  it("Wilcoxon drops zero differences and gives ties their mean rank and a smaller variance", () => {
    const w = wilcoxonSignedRank([0, 2, -2, 3, 3, 3, 5, -1])!;
    assert.equal(w.n, 7);
    assert.equal(w.zeros, 1);
    assert.equal(w.statistic, 2.5 + 3 * 5 + 7);
    near(w.z, 10 / Math.sqrt(35 - (6 + 24) / 48), 1e-12, "z with the tie correction");
    near(w.pValue, 0.08808151166219029, 1e-6, "p");
    // The differences' sign, not their order, decides the statistic.
    assert.equal(wilcoxonSignedRank([-2, 2, 3, 3, 5, 3, -1, 0])!.statistic, w.statistic);
    assert.equal(wilcoxonSignedRank([0, 0, 1e-12]), null, "nothing but zeros (within a nanosecond)");
    assert.equal(wilcoxonSignedRank([]), null);
  });

  it("one-way ANOVA: a textbook three-group example gives F(2, 15) = 9.26, p = 0.0024", () => {
    const a = oneWayAnova([
      [6, 8, 4, 5, 3, 4],
      [8, 12, 9, 11, 6, 8],
      [13, 9, 11, 8, 7, 12],
    ])!;
    near(a.f, 9.264705882352942, 1e-9, "F");
    assert.equal(a.dfBetween, 2);
    assert.equal(a.dfWithin, 15);
    near(a.pValue, 0.0023987773293929083, 1e-8, "p");
    const two = oneWayAnova([[10, 12, 11, 14], [15, 13, 16, 18, 17]])!;
    near(two.f, 10.8343949044586, 1e-9, "F of two groups (the square of the pooled t)");
    near(two.pValue, 0.013273916948507124, 1e-8, "p of two groups");
  });

  it("one-way ANOVA has no answer without variation or degrees of freedom", () => {
    assert.equal(oneWayAnova([[1, 2, 3]]), null, "one group");
    assert.equal(oneWayAnova([[1], [2]]), null, "no degree of freedom within");
    assert.equal(oneWayAnova([[5, 5], [7, 7]]), null, "no variation within the groups");
  });

  it("the sample standard deviation divides by n - 1", () => {
    near(sampleStandardDeviation([2, 4, 4, 4, 5, 5, 7, 9]) ?? undefined, Math.sqrt(32 / 7), 1e-12, "sd");
    assert.equal(sampleStandardDeviation([3]), null);
  });
});
