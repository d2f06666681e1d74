package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.lab.dedup.bench.BenchReport;
import io.github.kcrawler.lab.dedup.bench.ImpCbfBench;
import io.github.kcrawler.lab.dedup.bench.LinkGraph;
import io.github.kcrawler.lab.dedup.bench.SbflDecrementBench;
import io.github.kcrawler.lab.dedup.bench.UrlSeenMemoryBench;
import io.github.kcrawler.lab.dedup.bench.UrlSeenThroughputBench;
import io.github.kcrawler.dedup.membership.UrlSeenTierConfig;
import it.unimi.dsi.webgraph.ImmutableGraph;
import it.unimi.dsi.webgraph.NodeIterator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Development launcher of the dedup benchmarks (the crawler CLI wires the same {@code run} methods as
 * {@code crawler bench ...}): {@code sbfl-decrement}, {@code url-seen}, {@code url-seen-memory} and {@code imp-cbf}, with
 * {@code -key value} options, reading BVGraphs with WebGraph directly. Run through
 * {@code mvn -o -pl dedup-service test-compile exec:exec@bench -Dbench.args="..."}.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0 || args[0].equals("help")) {
            System.out.println("usage: sbfl-decrement [-log2 30] [-decrements 2000000000] [-bits 2] [-p 84.73] [-summary F]\n"
                    + "       url-seen -graph BASENAME [-repeats 3] [-lru N] [-m N] [-k 8] [-fpr 1e-5] [-summary F]\n"
                    + "       url-seen-memory [-graph BASENAME] [-scale A] [-synthetic true] [-synthetic-tests 1e8]\n"
                    + "                       [-synthetic-scale A] [-lru-extra 4] [-sbf true] [-plot BASENAME] [-summary F]\n"
                    + "       imp-cbf [-max-items 10000000] [-sizes 500000,1000000] [-ratios 0.078,0.3] [-repeats 2]\n"
                    + "               [-work-dir target/bench-imp-cbf] [-summary F]");
            return;
        }
        Map<String, String> opt = new HashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            opt.put(args[i].replaceFirst("^-+", ""), args[i + 1]);
        }
        Object result;
        switch (args[0]) {
            case "sbfl-decrement": {
                SbflDecrementBench.Options d = SbflDecrementBench.Options.defaults();
                result = SbflDecrementBench.run(new SbflDecrementBench.Options(
                        Integer.parseInt(opt.getOrDefault("log2", "" + d.log2Counters())),
                        (long) Double.parseDouble(opt.getOrDefault("decrements", "" + d.decrements())),
                        Integer.parseInt(opt.getOrDefault("bits", "" + d.counterBits())),
                        Double.parseDouble(opt.getOrDefault("p", "" + d.p())), d.seed()), System.out);
                break;
            }
            case "url-seen": {
                LinkGraph g = load(Path.of(opt.get("graph")));
                UrlSeenTierConfig t = UrlSeenTierConfig.defaults();
                UrlSeenTierConfig tiers = new UrlSeenTierConfig(
                        Integer.parseInt(opt.getOrDefault("lru", "" + t.lruSize())),
                        Long.parseLong(opt.getOrDefault("m", "" + t.sbflCounters())),
                        Integer.parseInt(opt.getOrDefault("k", "" + t.sbflHashes())),
                        Double.parseDouble(opt.getOrDefault("fpr", "" + t.sbflFpr())), t.counterBits());
                UrlSeenThroughputBench.Options d = UrlSeenThroughputBench.Options.defaults(g);
                result = UrlSeenThroughputBench.run(new UrlSeenThroughputBench.Options(g, 0, tiers,
                        Integer.parseInt(opt.getOrDefault("repeats", "" + d.repeats())), d.maxTests(),
                        Path.of(opt.getOrDefault("work-dir", "target/bench-url-seen"))), System.out);
                break;
            }
            case "url-seen-memory": {
                LinkGraph g = opt.containsKey("graph") ? load(Path.of(opt.get("graph"))) : null;
                UrlSeenMemoryBench.Options d = UrlSeenMemoryBench.Options.defaults(g);
                result = UrlSeenMemoryBench.run(new UrlSeenMemoryBench.Options(g, 0,
                        Integer.parseInt(opt.getOrDefault("scale", "-1")),
                        Boolean.parseBoolean(opt.getOrDefault("synthetic", "true")),
                        (long) Double.parseDouble(opt.getOrDefault("synthetic-tests", "" + d.syntheticTests())),
                        Integer.parseInt(opt.getOrDefault("synthetic-scale", "-1")),
                        Integer.parseInt(opt.getOrDefault("lru-extra", "" + d.lruExtraSteps())), d.counterBits(),
                        Boolean.parseBoolean(opt.getOrDefault("sbf", "true")),
                        opt.containsKey("plot") ? Path.of(opt.get("plot")) : null, d.seed()), System.out);
                break;
            }
            case "imp-cbf": {
                ImpCbfBench.Options d = ImpCbfBench.Options.defaults(true);
                result = ImpCbfBench.run(new ImpCbfBench.Options(
                        opt.containsKey("sizes")
                                ? Arrays.stream(opt.get("sizes").split(",")).map(Integer::valueOf).toList()
                                : ImpCbfBench.Options.sizesUpTo(
                                        Integer.parseInt(opt.getOrDefault("max-items", "10000000"))),
                        opt.containsKey("ratios")
                                ? Arrays.stream(opt.get("ratios").split(",")).map(Double::valueOf).toList()
                                : d.duplicateRatios(),
                        Integer.parseInt(opt.getOrDefault("repeats", "" + d.repeats())),
                        Path.of(opt.getOrDefault("work-dir", d.workDir().toString())), d.seed()), System.out,
                        partial -> writePartial(partial, opt.get("summary")));
                break;
            }
            default:
                throw new IllegalArgumentException("unknown benchmark " + args[0]);
        }
        BenchReport.print(result, System.out);
        if (opt.containsKey("summary")) {
            BenchReport.writeJson(result, Path.of(opt.get("summary")));
            System.out.println("summary written to " + opt.get("summary"));
        }
    }

    private static void writePartial(Object partial, String summary) {
        if (summary == null) {
            return;
        }
        try {
            BenchReport.writeJson(partial, Path.of(summary));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Reads a BVGraph sequentially into CSR arrays (no offsets file needed). */
    static LinkGraph load(Path basename) throws IOException {
        String base = basename.toString().replaceFirst("\\.(graph|properties|offsets)$", "");
        ImmutableGraph graph = ImmutableGraph.loadOffline(base);
        int n = graph.numNodes();
        int[] offsets = new int[n + 1];
        int[] targets = new int[(int) graph.numArcs()];
        int pos = 0;
        NodeIterator it = graph.nodeIterator();
        for (int i = 0; i < n; i++) {
            it.nextInt();
            int d = it.outdegree();
            System.arraycopy(it.successorArray(), 0, targets, pos, d);
            pos += d;
            offsets[i + 1] = pos;
        }
        return LinkGraph.csr(Path.of(base).getFileName().toString(), offsets, targets);
    }
}
