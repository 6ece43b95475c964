/**
 * `npm run bench -- --short` sets BENCH_SHORT=1 for every bench: each runs at a size that only shows
 * it runs to the end and prints every figure beside its baseline (what `tests/bench/bench.test.ts`
 * checks in CI). Its figures are too small to mean anything; the full run's are the measurements.
 */
export const SHORT = process.env.BENCH_SHORT === '1';

/** `full` in a measuring run, `short` in a short one. */
export const sized = <T>(full: T, short: T): T => (SHORT ? short : full);
