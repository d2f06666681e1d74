package io.github.kcrawler.lab;

import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Reads every WARC file the fetcher wrote and counts response records per target URI. */
final class WarcAssertions {
    private WarcAssertions() {
    }

    static Map<String, Integer> responsesByUri(Path warcDir) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(warcDir)) {
            files = s.filter(p -> p.getFileName().toString().contains(".warc")).sorted().toList();
        }
        for (Path f : files) {
            try (WarcReader reader = new WarcReader(f)) {
                for (WarcRecord record : reader) {
                    if (record instanceof WarcResponse response) {
                        counts.merge(response.target(), 1, Integer::sum);
                    }
                }
            }
        }
        return counts;
    }
}
