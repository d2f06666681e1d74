package io.github.kcrawler.common.topic;

import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.ContentDuplicate;
import io.github.kcrawler.common.model.ContentRef;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.serde.JsonSerde;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The topic catalogue (DESIGN §2). Every topic but {@code crawl.content.refs} (keyed by a body's fingerprint) is
 * keyed by the IP address of the URL's host, and all are created
 * with the same partition count so they are co-partitioned: partition p of every topic holds the same servers.
 * Names are the defaults prefixed with a configurable prefix (empty by default), so several crawls can share a
 * cluster.
 */
public final class Topics {
    public static final String DISCOVERED = "crawl.urls.discovered";
    public static final String ADMITTED = "crawl.urls.admitted";
    public static final String FORGET = "crawl.urls.forget";
    public static final String FETCH_REQUESTS = "crawl.fetch.requests";
    public static final String FETCH_RESULTS = "crawl.fetch.results";
    public static final String LINKS = "crawl.links";
    public static final String RANK_DELTAS = "crawl.rank.deltas";
    public static final String RANK_SCORES = "crawl.rank.scores";
    public static final String CONTENT_REFS = "crawl.content.refs";
    public static final String CONTENT_DUPLICATES = "crawl.content.duplicates";
    public static final String PAGES = "crawl.pages";
    /** Records a Streams service could not process (issue 20): keyed and valued as their source, reason in headers. */
    public static final String DEADLETTER = "crawl.deadletter";

    private static final Pattern LEGAL_PREFIX = Pattern.compile("[a-zA-Z0-9._-]*");
    private static final Serde<String> KEY = Serdes.String();

    public final Topic<String, DiscoveredUrls> discovered;
    public final Topic<String, AdmittedUrls> admitted;
    public final Topic<String, ForgetUrl> forget;
    public final Topic<String, FetchRequest> fetchRequests;
    public final Topic<String, FetchResult> fetchResults;
    public final Topic<String, LinkList> links;
    /** Keyed by the IP of one entry's host: one record per input record and target partition (a batch). */
    public final Topic<String, RankDeltaBatch> rankDeltas;
    /** Keyed by the IP of one entry's host: one record per ranker partition and flush (a batch). */
    public final Topic<String, RankScoreBatch> rankScores;
    /** Keyed by the body's content fingerprint (hex), not by IP: identical bodies meet on one partition. */
    public final Topic<String, ContentRef> contentRefs;
    public final Topic<String, ContentDuplicate> contentDuplicates;
    /**
     * Dead letters: the source record's key and value bytes as they were read, whatever their type, with the source
     * topic, partition, offset, service and exception in headers ({@code DeadLetters}).
     */
    public final Topic<String, byte[]> deadLetter;
    private final String prefix;

    private Topics(String prefix) {
        if (prefix == null || !LEGAL_PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("topic prefix may only contain [a-zA-Z0-9._-], was '" + prefix + "'");
        }
        this.prefix = prefix;
        discovered = topic(DISCOVERED, DiscoveredUrls.class);
        admitted = topic(ADMITTED, AdmittedUrls.class);
        forget = topic(FORGET, ForgetUrl.class);
        fetchRequests = topic(FETCH_REQUESTS, FetchRequest.class);
        fetchResults = topic(FETCH_RESULTS, FetchResult.class);
        links = topic(LINKS, LinkList.class);
        rankDeltas = topic(RANK_DELTAS, RankDeltaBatch.class);
        rankScores = topic(RANK_SCORES, RankScoreBatch.class);
        contentRefs = topic(CONTENT_REFS, ContentRef.class);
        contentDuplicates = topic(CONTENT_DUPLICATES, ContentDuplicate.class);
        deadLetter = new Topic<>(prefix + DEADLETTER, KEY, Serdes.ByteArray());
    }

    public static Topics withPrefix(String prefix) {
        return new Topics(prefix);
    }

    public static Topics defaults() {
        return new Topics("");
    }

    public String prefix() {
        return prefix;
    }

    /** Every topic the pipeline needs (the optional {@code crawl.pages} feed is not included). */
    public List<Topic<String, ?>> all() {
        return List.of(discovered, admitted, forget, fetchRequests, fetchResults, links, rankDeltas, rankScores,
                contentRefs, contentDuplicates, deadLetter);
    }

    public List<String> allNames() {
        return all().stream().map(Topic::name).toList();
    }

    private <V> Topic<String, V> topic(String name, Class<V> type) {
        return new Topic<>(prefix + name, KEY, JsonSerde.of(type));
    }
}
