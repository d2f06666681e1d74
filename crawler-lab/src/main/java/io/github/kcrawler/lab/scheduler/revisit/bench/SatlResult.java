package io.github.kcrawler.lab.scheduler.revisit.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.github.kcrawler.lab.dedup.bench.BenchReport;

import java.util.List;
import java.util.Map;

/**
 * What {@code bench satl} measured (paper 003, Fig. 7 and Table 1), written as its JSON summary in this field order
 * and read back from it for the plots ({@code SatlPlots}).
 *
 * @param tolerance                         SAT/L's e: the text {@code "unlimited"} or a number of units, as the
 *                                          summary always wrote it
 * @param table1Buffers                     Table 1, computed, by row ({@code 1d}, {@code 1h}, {@code 1m})
 * @param runs                              one per (distribution, T, store, buffer), in the order run
 * @param speedupVsRocksdbPeaked576000At1MiB RocksDB's time per record over SAT/L's, Peaked, T = 576,000, 1 MiB;
 *                                          null when either did not run
 * @param speedupVsRocksdb                  the same for every SAT/L run with a RocksDB run beside it, keyed
 *                                          {@code distribution/T/bufferMiB}
 * @param machine                           the machine, or null (left out) from the bench alone
 */
public record SatlResult(String benchmark, long records, int recordBytes, int units, Object tolerance,
                         boolean directIo, String workDir, Map<String, SatlTable1.Row> table1Buffers, List<Run> runs,
                         Double speedupVsRocksdbPeaked576000At1MiB, Map<String, Double> speedupVsRocksdb,
                         @JsonInclude(JsonInclude.Include.NON_NULL) BenchReport.Machine machine) {

    /** This result with the machine it ran on ({@code crawler bench satl} adds it; the bench alone leaves it out). */
    public SatlResult withMachine(BenchReport.Machine m) {
        return new SatlResult(benchmark, records, recordBytes, units, tolerance, directIo, workDir, table1Buffers,
                runs, speedupVsRocksdbPeaked576000At1MiB, speedupVsRocksdb, m);
    }

    /**
     * One store on one workload and buffer.
     *
     * @param bucketsAtStart              bucket files at the start of the measured phase (SAT and SAT/L only; null
     *                                    and left out otherwise), likewise {@code bucketsAtEnd}
     * @param bytesWrittenPerRecord       as counted by the store
     * @param kernelBytesWrittenPerRecord from /proc/self/io; null where it cannot be read
     * @param perUnitMillis               the wall time of each unit of the measured phase
     */
    public record Run(String distribution, long maxInterval, String store, long bufferBytes, double loadSeconds,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Integer bucketsAtStart, long recordsProcessed,
                      double seconds, double nsPerRecord, double bytesWrittenPerRecord, double bytesReadPerRecord,
                      Double kernelBytesWrittenPerRecord, Double kernelBytesReadPerRecord,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Integer bucketsAtEnd, List<Double> perUnitMillis) {
    }
}
