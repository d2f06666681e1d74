/**
 * Measuring a crawl from the outside, for {@code crawler bench e2e} and {@code crawler demo --summary} (issue 19,
 * item 1): the page rate between 10 % and 90 % of the budget and its 10-second windows ({@link PageRate}), the
 * politeness efficiency of the busiest IPs ({@link PolitenessEfficiency}), both from websim's own access times;
 * CPU per thread group ({@link ThreadGroups}, {@link ThreadCpuSampler}); records and bytes per topic from log-end
 * offsets and log sizes ({@link LogOffsets}); state-store operations counted by RocksDB
 * ({@link CountingRocksDbConfigSetter}); GC share. The computations are plain functions with exact tests; the
 * samplers only feed them.
 */
package io.github.kcrawler.lab.measure;
