/**
 * The audit plan's arithmetic: how many questions a person must audit for the 95 % interval of the
 * raw agreement, or of Cohen's κ, to have a stated half-width h, before they start.
 *
 * Raw agreement p (a proportion): n₀ = z² p(1 − p) / h², p the expected agreement (0.5, the
 * worst case, when nothing is known).
 * Cohen's κ: the large-sample standard error of Cohen (1960), SE(κ) ≈ √(p_o(1 − p_o) / n) / (1 − p_e),
 * so n₀ = z² p_o(1 − p_o) / ((1 − p_e)² h²). p_e, the chance agreement, is Σ_c p_c² when the person
 * grades with the automatic grader's marginals p_c, which the report knows before the audit
 * starts (chanceAgreement); p_o is a guess of how often they will agree (0.9 by default).
 * A finite set of N questions: Cochran's correction n = n₀ / (1 + (n₀ − 1)/N) ("Sampling
 * Techniques", 1977, ch. 4), rounded up and at most N.
 * The achieved width at these n was measured against the bootstrap interval the summary reports
 * (docs/STATISTICS.md, "Audits").
 */

export const Z95 = 1.959963984540054;

/** Cochran's finite-population correction, rounded up, capped at N (n₀ as is when N is unknown). */
export function finitePopulation(n0: number, population?: number): number {
  if (!Number.isFinite(n0)) return n0;
  const n = population !== undefined && population > 0 ? n0 / (1 + (n0 - 1) / population) : n0;
  const whole = Math.ceil(n - 1e-9);
  return Math.max(1, population !== undefined && population > 0 ? Math.min(whole, population) : whole);
}

export interface AgreementPlan {
  /** The interval half-width wanted, in (0, 1). */
  halfWidth: number;
  /** Expected raw agreement (default 0.5, the largest sample). */
  expected?: number;
  /** Questions in the set (for the finite-population correction). */
  population?: number;
  z?: number;
}

/** Questions needed for the raw agreement's interval to have the half-width. */
export function agreementSampleSize({ halfWidth, expected = 0.5, population, z = Z95 }: AgreementPlan): number {
  checkHalfWidth(halfWidth);
  return finitePopulation((z * z * expected * (1 - expected)) / (halfWidth * halfWidth), population);
}

export interface KappaPlan {
  halfWidth: number;
  /** Expected raw agreement p_o (default 0.9). */
  expectedAgreement?: number;
  /** Chance agreement p_e (chanceAgreement of the automatic grades' shares). */
  chanceAgreement: number;
  population?: number;
  z?: number;
}

/** Questions needed for κ's interval to have the half-width (Infinity when p_e = 1: κ undefined). */
export function kappaSampleSize({ halfWidth, expectedAgreement = 0.9, chanceAgreement, population, z = Z95 }: KappaPlan): number {
  checkHalfWidth(halfWidth);
  if (!(chanceAgreement >= 0 && chanceAgreement <= 1)) throw new RangeError(`chance agreement must be in [0, 1], got ${chanceAgreement}`);
  if (chanceAgreement >= 1) return Infinity;
  const po = expectedAgreement;
  // p_o = 1 would ask for one question; a floor of one disagreement in a hundred keeps the plan honest.
  const spread = Math.max(po * (1 - po), 0.01 * 0.99);
  return finitePopulation((z * z * spread) / ((1 - chanceAgreement) ** 2 * halfWidth * halfWidth), population);
}

/** p_e = Σ p_c², from the counts of each category among the automatic grades. */
export function chanceAgreement(counts: readonly number[]): number {
  const n = counts.reduce((a, b) => a + b, 0);
  if (n === 0) return NaN;
  return counts.reduce((s, c) => s + (c / n) ** 2, 0);
}

function checkHalfWidth(h: number): void {
  if (!(h > 0 && h < 1)) throw new RangeError(`the interval half-width must be in (0, 1), got ${h}`);
}
