import betaQuantile from "@stdlib/stats-base-dists-beta-quantile";

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
  // the exact interval's ends are beta quantiles: B(α/2; k, n−k+1) and B(1−α/2; k+1, n−k)
  const lower = successes === 0 ? 0 : betaQuantile(tail, successes, trials - successes + 1);
  const upper = successes === trials ? 1 : betaQuantile(1 - tail, successes + 1, trials - successes);
  return { lower, upper };
}

/** P(X ≤ k) for X ~ Binomial(n, p), summed in log space (no overflow for n in the thousands); the tests check the interval with it. */
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

/** "43/44 (97.7 %, 95 % CI upper 99.9 %)": a rate as the docs and benches print it. */
export function describeRate(successes: number, trials: number): string {
  const { upper } = clopperPearson(successes, trials);
  return `${successes}/${trials} (${percent(successes / trials)}, 95 % upper bound ${percent(upper)})`;
}

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
