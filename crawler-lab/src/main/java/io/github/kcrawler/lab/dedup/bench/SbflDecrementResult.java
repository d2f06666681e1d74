package io.github.kcrawler.lab.dedup.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What {@code bench sbfl-decrement} measured (paper 000, Table 1), written as its JSON summary in this field order
 * and read back from it for the plots ({@code SbflDecrementPlots}). Rates are decrements per second, rounded to six
 * significant digits.
 *
 * @param counters                             m, the counters of each filter
 * @param decrements                           counter decrements per variant
 * @param decrementsPerInsertion               p of the per-insertion runs; null (absent) when they were skipped,
 *                                             as are the two rates after it
 * @param arrayBytes                           bytes of one filter's counter array (m × counterBits / 8)
 * @param countersLowered                      of the SBFL's decrements, how many lowered a counter (the others hit
 *                                             a counter already at zero: more than Max sweeps of the array); checked
 *                                             against the array after every SBFL run, which is what keeps the JIT
 *                                             from dropping the work and the bench from counting work not done
 * @param bytesTouchedPerSecond                the SWAR sweep's bytes of the counter array read plus written per
 *                                             second (each decrement reads and writes its counter's bits once)
 * @param arrayCopyBytesPerSecond              {@code System.arraycopy} over an array of {@code arrayBytes} in the
 *                                             same run, bytes read plus written per second: the memory (or cache,
 *                                             for a small array) bandwidth that bounds {@code bytesTouchedPerSecond}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SbflDecrementResult(long counters, int counterBits, long decrements,
                                  double sbfSeconds, double sbflSeconds, double sbflSwarSeconds,
                                  double sbfDecrementsPerSec, double sbflDecrementsPerSec,
                                  double sbflSwarDecrementsPerSec, double sbflSpeedupOverSbf,
                                  double sbflSwarSpeedupOverSbf, double paperSbflSpeedupOverSbf,
                                  double paperSbflSwarSpeedupOverSbf, Double decrementsPerInsertion,
                                  Double sbflPerInsertionDecrementsPerSec, Double sbflSwarPerInsertionDecrementsPerSec,
                                  long arrayBytes, long countersLowered, double bytesTouchedPerSecond,
                                  double arrayCopyBytesPerSecond, BenchReport.Machine machine) {
    /** Paper 000, Table 1 (2.66 GHz Xeon, 2^30 2-bit counters, 2×10^9 decrements): SBF, SBFL and 32-way SBFL. */
    public static final double PAPER_SBF_SECONDS = 320.7;
    public static final double PAPER_SBFL_SECONDS = 9.435;
    public static final double PAPER_SBFL_SWAR_SECONDS = 0.9672;
}
