package io.github.kcrawler.common.jmh;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.serde.JsonSerde;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The record serde on the crawler's hot topics: one page's records (its result, its link list, its discovered URLs
 * and a batch of rank deltas, 6 links each) written and read back, with the project's mapper ({@code project},
 * {@link JsonSerde#MAPPER}) against a plain reflective databind mapper ({@code reflective}), so that the mapper's
 * modules are chosen on a measured ratio. Run: {@code crawler-common/src/jmh/run.sh SerdeJmh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SerdeJmh {
    @Param({"project", "reflective"})
    public String mapper;

    private ObjectMapper m;
    private FetchResult result;
    private LinkList links;
    private DiscoveredUrls discovered;
    private RankDeltaBatch deltas;
    private byte[] resultBytes;
    private byte[] linksBytes;
    private byte[] discoveredBytes;
    private byte[] deltasBytes;

    @Setup
    public void setUp() throws IOException {
        m = mapper.equals("project") ? JsonSerde.MAPPER
                : JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        String source = "http://h1234.example.test/dir/page-000123.html";
        List<LinkList.Link> ls = new ArrayList<>();
        List<DiscoveredUrls.Entry> es = new ArrayList<>();
        List<RankDelta> ds = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String url = "http://h" + (1000 + 37 * i) + ".example.test/dir/page-" + (4567 + i) + ".html";
            String ip = "10.0." + i + "." + (17 * i % 250);
            ls.add(new LinkList.Link(url, 0x9e3779b97f4a7c15L * (i + 1), ip));
            es.add(new DiscoveredUrls.Entry(url, ip));
            ds.add(new RankDelta(url, 0x9e3779b97f4a7c15L * (i + 1), ip, 0.0123456789 / (i + 1), 3));
        }
        result = new FetchResult(FetchResult.VERSION, source, 0x1234567890abcdefL, 3, 42, FetchKind.NEW, 200,
                FetchOutcome.OK, 1_764_000_000_000L, 1, 12, "5f2b9c0e1d7a4b3c", 2_800, "text/html; charset=utf-8",
                null, "\"abc123\"", "Thu, 26 Nov 2026 10:00:00 GMT", 6, null);
        links = new LinkList(LinkList.VERSION, source, 0x1234567890abcdefL, ls);
        discovered = DiscoveredUrls.of(source, 4, 1_764_000_000_000L, es);
        deltas = RankDeltaBatch.of(ds);
        resultBytes = m.writeValueAsBytes(result);
        linksBytes = m.writeValueAsBytes(links);
        discoveredBytes = m.writeValueAsBytes(discovered);
        deltasBytes = m.writeValueAsBytes(deltas);
    }

    @Benchmark
    public int writePage() throws IOException {
        return m.writeValueAsBytes(result).length + m.writeValueAsBytes(links).length
                + m.writeValueAsBytes(discovered).length + m.writeValueAsBytes(deltas).length;
    }

    @Benchmark
    public Object readPage() throws IOException {
        m.readValue(resultBytes, FetchResult.class);
        m.readValue(linksBytes, LinkList.class);
        m.readValue(discoveredBytes, DiscoveredUrls.class);
        return m.readValue(deltasBytes, RankDeltaBatch.class);
    }
}
