/**
 * The exact (Clopper–Pearson) confidence interval of a rate seen as `successes` out of `trials`:
 * the two-sided interval at `confidence` (default 95 %), so its upper end is also the one-sided
 * 97.5 % upper bound. "0 of 102" is not "0 %": its upper end is 3.6 %. Used by the face benches
 * to report every error rate with the worst rate the trials cannot rule out.
 */
export function clopperPearson(successes: number, trials: number, confidence = 0.95): { lower: number; upper: number } {
  if (!Number.isInteger(trials) || trials < 1 || !Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new RangeError(`clopperPearson needs 0 ≤ successes ≤ trials, trials ≥ 1 (got ${successes}/${trials})`);
  }
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1) (got ${confidence})`);
  const tail = (1 - confidence) / 2;
  // upper: the p at which seeing `successes` or fewer is as unlikely as the tail; lower: `successes` or more
  const upper = successes === trials ? 1 : solveDecreasing((p) => binomialAtMost(successes, trials, p), tail);
  const lower = successes === 0 ? 0 : solveDecreasing((p) => binomialAtMost(successes - 1, trials, p), 1 - tail);
  return { lower, upper };
}

/** P(X ≤ k) for X ~ Binomial(n, p), summed in log space (no overflow for n in the thousands). */
export function binomialAtMost(k: number, n: number, p: number): number {
  if (p <= 0) return 1;
  if (p >= 1) return k >= n ? 1 : 0;
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  let logChoose = 0; // log C(n, 0)
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    sum += Math.exp(logChoose + i * logP + (n - i) * logQ);
  }
  return Math.min(1, sum);
}

/** The p in (0, 1) where a function decreasing in p equals `target`, by bisection to 1e-12. */
function solveDecreasing(f: (p: number) => number, target: number): number {
  let low = 0;
  let high = 1;
  for (let i = 0; i < 60; i++) {
    const middle = (low + high) / 2;
    if (f(middle) > target) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** "43/44 (97.7 %, 95 % CI upper 99.9 %)": a rate as the docs and benches print it. */
export function describeRate(successes: number, trials: number): string {
  const { upper } = clopperPearson(successes, trials);
  return `${successes}/${trials} (${percent(successes / trials)}, 95 % upper bound ${percent(upper)})`;
}

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
