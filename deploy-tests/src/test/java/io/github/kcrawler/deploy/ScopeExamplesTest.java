package io.github.kcrawler.deploy;

import io.github.kcrawler.app.cli.CrawlerMain;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.scope.CrawlScope;
import io.github.kcrawler.common.scope.ScopeDecision;
import io.github.kcrawler.common.url.UrlNormalizer;
import io.github.kcrawler.fetcher.FetcherConfig;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/SCOPE.md's allow/deny examples are what the crawler does: each example's {@code ./crawler crawl} command is
 * parsed by the real {@code crawler} command line (picocli), its {@code --set} and {@code --max-depth} values and each
 * of its YAML blocks (a kcrawler-fetcher ConfigMap's data, a compose override's fetcher environment, with compose's
 * {@code $$}) become the fetcher's settings through its own parser ({@code Settings.parse} over
 * {@link FetcherConfig#KEYS}, then {@link FetcherConfig#from}), and every row of the example's table is checked with
 * that scope: the URL normalised as the fetcher does, at depth 1 from the page in the second column, or as a seed.
 */
class ScopeExamplesTest {
    static final String DOC = "docs/SCOPE.md";
    private static final Pattern FENCE = Pattern.compile("(?ms)^```(\\w+)\\n(.*?)^```");
    private static final Pattern ROW = Pattern.compile("(?m)^\\|\\s*(\\S+)\\s*\\|\\s*(\\S*)\\s*\\|\\s*([A-Z_]+)\\s*\\|$");

    @Test
    void everyExampleDecidesEveryRowAsItsTableSays() {
        String doc = Repo.read(Repo.file(DOC));
        String[] sections = doc.split("(?m)^### Example ");
        assertThat(sections.length - 1).as(DOC + " examples").isGreaterThanOrEqualTo(6);
        int rows = 0;
        for (int i = 1; i < sections.length; i++) {
            String section = sections[i];
            String title = "Example " + section.lines().findFirst().orElse("");
            List<Map.Entry<String, CrawlScope>> scopes = new ArrayList<>();
            List<String> seeds = new ArrayList<>();
            Matcher fence = FENCE.matcher(section);
            while (fence.find()) {
                String lang = fence.group(1);
                String body = fence.group(2);
                if (lang.equals("bash")) {
                    scopes.add(Map.entry(title + " command", fromCommand(title, body, seeds)));
                } else if (lang.equals("yaml")) {
                    scopes.add(Map.entry(title + " yaml", fromYaml(title, body)));
                }
            }
            assertThat(scopes).as(title + " configures a scope").isNotEmpty();
            Matcher row = ROW.matcher(section);
            int sectionRows = 0;
            while (row.find()) {
                String url = row.group(1);
                String source = row.group(2);
                ScopeDecision expected = ScopeDecision.valueOf(row.group(3));
                String normalized = UrlNormalizer.normalize(url).orElseThrow(() ->
                        new AssertionError(title + ": " + url + " does not normalise"));
                for (Map.Entry<String, CrawlScope> s : scopes) {
                    ScopeDecision actual = source.isEmpty() ? s.getValue().checkSeed(normalized)
                            : s.getValue().check(normalized, 1, UrlNormalizer.normalize(source).orElseThrow());
                    assertThat(actual).as(s.getKey() + ": " + url + " (normalised " + normalized + ") found on '"
                            + source + "'").isEqualTo(expected);
                }
                sectionRows++;
            }
            assertThat(sectionRows).as(title + " table rows").isGreaterThanOrEqualTo(4);
            rows += sectionRows;
            for (String seed : seeds) {
                for (Map.Entry<String, CrawlScope> s : scopes) {
                    assertThat(s.getValue().checkSeed(UrlNormalizer.normalize(seed).orElseThrow()))
                            .as(title + ": its own seed " + seed).isEqualTo(ScopeDecision.IN_SCOPE);
                }
            }
        }
        assertThat(rows).isGreaterThan(30);
    }

    /** A {@code ./crawler crawl ...} line through the real command line; its scope settings through the fetcher's. */
    @SuppressWarnings("unchecked")
    private static CrawlScope fromCommand(String title, String body, List<String> seeds) {
        List<String> words = shellWords(body.replace("\\\n", " ").trim());
        assertThat(words.subList(0, 2)).as(title).containsExactly("./crawler", "crawl");
        CommandLine.ParseResult parsed = new CommandLine(new CrawlerMain())
                .parseArgs(words.subList(1, words.size()).toArray(String[]::new)).subcommand();
        assertThat(parsed.commandSpec().name()).isEqualTo("crawl");
        List<String> args = new ArrayList<>();
        Map<String, String> set = parsed.matchedOptionValue("--set", Map.of());
        set.forEach((k, v) -> {
            assertThat(CrawlScope.KEYS).as(title + ": --set " + k + " is a scope setting").contains(k);
            args.add("--" + k);
            args.add(v);
        });
        if (parsed.hasMatchedOption("--max-depth")) {
            args.add("--max-depth");
            args.add(String.valueOf((Object) parsed.matchedOptionValue("--max-depth", 0)));
        }
        for (String s : parsed.matchedOptionValue("--seeds", List.<String>of())) {
            if (s.startsWith("http")) {
                seeds.add(s);
            }
        }
        return FetcherConfig.from(Settings.parse(FetcherConfig.KEYS, Map.of(), args.toArray(String[]::new))).scope();
    }

    /** A kcrawler-fetcher ConfigMap (its data) or a compose override (the fetcher's environment, {@code $$} as $). */
    @SuppressWarnings("unchecked")
    private static CrawlScope fromYaml(String title, String body) {
        Map<String, Object> doc = new Yaml().load(body);
        Map<String, String> env = new LinkedHashMap<>();
        if ("ConfigMap".equals(doc.get("kind"))) {
            assertThat(((Map<String, Object>) doc.get("metadata")).get("name")).isEqualTo("kcrawler-fetcher");
            ((Map<String, Object>) doc.get("data")).forEach((k, v) -> env.put(k, String.valueOf(v)));
        } else {
            Map<String, Object> fetcher = (Map<String, Object>) ((Map<String, Object>) doc.get("services")).get("fetcher");
            ((Map<String, Object>) fetcher.get("environment")).forEach((k, v) -> {
                String value = String.valueOf(v);
                assertThat(value.replace("$$", "")).as(title + ": compose would interpolate a lone $ in " + k)
                        .doesNotContain("$");
                env.put(k, value.replace("$$", "$"));
            });
        }
        assertThat(env).as(title).isNotEmpty();
        return FetcherConfig.from(Settings.parse(FetcherConfig.KEYS, env)).scope();
    }

    /** Words of a shell command line: blanks separate, single quotes keep everything literally. */
    static List<String> shellWords(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                assertThat(end).as("closing quote in " + line).isPositive();
                w.append(line, i + 1, end);
                i = end;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                assertThat(c).as("only single quotes in the examples: " + line).isNotIn('"', '\\', '$', '`');
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }
}
