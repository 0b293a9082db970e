/**
 * The special functions behind the significance tests' p-values, written out here so the numbers do
 * not depend on a statistics package: log-gamma, the regularized incomplete beta function (F and t
 * distributions) and the standard normal CDF (the Wilcoxon test's normal approximation).
 */

// Lanczos' approximation with g = 7 and nine coefficients: about 15 correct digits for x > 0.
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma: x must be above 0, not ${x}`);
  // The series loses accuracy below 1/2; Euler's reflection Γ(x)Γ(1-x) = π / sin(πx) moves x above it.
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** I_x(a, b), the regularized incomplete beta function, for a, b > 0 and x from 0 to 1. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedIncompleteBeta: a and b must be above 0, not ${a} and ${b}`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`regularizedIncompleteBeta: x must be from 0 to 1, not ${x}`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast only below (a + 1) / (a + b + 2); above it, use I_x(a, b) = 1 - I_{1-x}(b, a).
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(x, a, b)) / a : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

const MAX_ITERATIONS = 500;
const EPSILON = 1e-15;
const TINY = 1e-300;
/** Lentz's method divides by these terms: one that vanishes is nudged off zero. */
const nonZero = (v: number) => (Math.abs(v) < TINY ? TINY : v);

/** The continued fraction of I_x(a, b), evaluated by the modified Lentz method (Numerical Recipes §6.4). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 / nonZero(1 - ((a + b) * x) / (a + 1));
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    // Even step, then odd step, of the fraction's terms d_{2m} and d_{2m+1}.
    const even = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 / nonZero(1 + even * d);
    c = nonZero(1 + even / c);
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 / nonZero(1 + odd * d);
    c = nonZero(1 + odd / c);
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) return h;
  }
  throw new RangeError(`regularizedIncompleteBeta: no convergence for x ${x}, a ${a}, b ${b}`);
}

/**
 * P(Z <= z) for a standard normal Z, from the upper incomplete gamma function, erfc(t) = Q(1/2, t²):
 * accurate to the last digits in the tails too, where p-values live.
 */
export function normalCdf(z: number): number {
  const tail = 0.5 * regularizedUpperGamma(0.5, (z * z) / 2);
  return z < 0 ? tail : 1 - tail;
}

/** Q(a, x) = Γ(a, x) / Γ(a): by its series below x = a + 1, by its continued fraction above (Numerical Recipes §6.2). */
function regularizedUpperGamma(a: number, x: number): number {
  if (x === 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n <= MAX_ITERATIONS && Math.abs(term) > Math.abs(sum) * EPSILON; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return 1 - sum * front;
  }
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = 1 / nonZero(an * d + b);
    c = nonZero(b + an / c);
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) return front * h;
  }
  throw new RangeError(`normalCdf: no convergence for Q(${a}, ${x})`);
}
