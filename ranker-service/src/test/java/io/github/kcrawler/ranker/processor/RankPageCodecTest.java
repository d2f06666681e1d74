package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link RankPageCodec}: the ranker's binary page value round-trips every page (unfetched, fetched with outlinks, the
 * epoch mark without URL, nulls, any double bit for bit), reads the earlier JSON form, and refuses anything else with
 * a {@link SerializationException} — never another exception, never a huge allocation. Seeded (PropertyCheck; rerun
 * one try with -Dkc.seed).
 */
class RankPageCodecTest {

    static RankPage page(Gen g) {
        List<LinkList.Link> links = g.bool() ? List.of() : g.list(0, 40, x -> new LinkList.Link(
                x.bool() && x.bool() ? null : "http://" + x.utf8Safe(0, 120), x.anyLong(),
                x.bool() && x.bool() ? null : x.utf8Safe(1, 40)));
        double score = g.ofDoubles(0.0, -0.0, 1e-300, Double.MIN_VALUE, Double.NaN, Double.POSITIVE_INFINITY,
                g.doubleIn(-1e9, 1e9), Double.longBitsToDouble(g.anyLong()));
        return new RankPage(g.intIn(0, 3), g.bool() && g.bool() ? null : "http://" + g.utf8Safe(0, 200),
                g.bool() && g.bool() ? null : g.utf8Safe(1, 40), score, g.doubleIn(-1e6, 1e6), g.bool(),
                g.intIn(Integer.MIN_VALUE, Integer.MAX_VALUE), links, g.anyLong());
    }

    @Test
    void everyPageRoundTrips() {
        PropertyCheck.forAll(2_000, g -> {
            RankPage p = page(g);
            byte[] b = RankPageCodec.encode(p);
            assertThat(b[0]).isEqualTo(RankPageCodec.FORMAT);
            RankPage back = RankPageCodec.decode(b);
            assertThat(back).isEqualTo(p);
            assertThat(Double.doubleToRawLongBits(back.score())).isEqualTo(Double.doubleToRawLongBits(p.score()));
            assertThat(RankPageCodec.SERDE.deserializer().deserialize("t",
                    RankPageCodec.SERDE.serializer().serialize("t", p))).isEqualTo(p);
        });
    }

    @Test
    void theEarlierJsonFormStillReads_andTheBinaryIsSmaller() {
        RankPage fetched = new RankPage(RankPage.VERSION, "http://h1.sim.test/p/17", "127.1.2.3", 0.123456789012345,
                0.0, true, 2, List.of(new LinkList.Link("http://h1.sim.test/p/18", 42L, "127.1.2.3"),
                new LinkList.Link("http://h2.sim.test/p/1", -7L, "127.1.2.4")), 9L);
        RankPage unfetched = RankPage.unfetched("http://h2.sim.test/p/99", "127.1.2.4").withScore(0.0375, 0.0, 3L);
        RankPage mark = RankPage.EPOCHS.mark(12L);
        JsonSerde<RankPage> json = JsonSerde.of(RankPage.class);
        for (RankPage p : List.of(fetched, unfetched, mark)) {
            byte[] old = json.serialize("t", p);
            assertThat(RankPageCodec.decode(old)).isEqualTo(p);
            assertThat(RankPageCodec.encode(p).length).isLessThan(old.length / 2);
        }
        String v1 = "{\"v\":1,\"url\":\"http://a.test/\",\"ip\":\"10.0.0.1\",\"score\":0.5,\"accumulated\":0.0,"
                + "\"fetched\":false,\"degree\":0,\"outlinks\":[]}";
        assertThat(RankPageCodec.decode(v1.getBytes(StandardCharsets.UTF_8))).isEqualTo(
                new RankPage(1, "http://a.test/", "10.0.0.1", 0.5, 0.0, false, 0, List.of(), 0L));
    }

    @Test
    void anythingElseIsRefusedWithASerializationException() {
        assertThatThrownBy(() -> RankPageCodec.decode(new byte[0])).isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> RankPageCodec.decode("not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerializationException.class);
        // a huge outlink count in a short value is refused before anything is allocated for it
        byte[] header = RankPageCodec.encode(new RankPage(1, null, null, 0, 0, false, 0, List.of(), 0));
        byte[] lying = Arrays.copyOf(header, header.length + 4);
        System.arraycopy(new byte[] {(byte) 0xfe, (byte) 0xff, (byte) 0xff, (byte) 0x0f}, 0, lying,
                header.length - 1, 4);
        assertThatThrownBy(() -> RankPageCodec.decode(lying)).isInstanceOf(SerializationException.class);
        PropertyCheck.forAll(500, g -> {
            byte[] good = RankPageCodec.encode(page(g));
            int how = g.intIn(0, 2);
            byte[] bad = switch (how) {
                case 0 -> Arrays.copyOf(good, g.intIn(1, good.length - 1)); // truncated
                case 1 -> Arrays.copyOf(good, good.length + g.intIn(1, 8)); // trailing bytes
                default -> {
                    byte[] c = good.clone();
                    c[g.intIn(1, c.length - 1)] ^= (byte) g.intIn(1, 255); // one byte flipped
                    yield c;
                }
            };
            Throwable t = catchThrowable(() -> RankPageCodec.decode(bad));
            if (how < 2) {
                assertThat(t).as("truncated or trailing bytes").isInstanceOf(SerializationException.class);
            } else if (t != null) {
                // a flipped byte inside a string or a double may still decode to some page: only the kind of
                // failure is checked, never that every corruption is caught
                assertThat(t).isInstanceOf(SerializationException.class);
            }
        });
    }
}
