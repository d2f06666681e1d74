package io.github.kcrawler.lab.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.github.kcrawler.app.archfixture.ProductUsesLab;
import io.github.kcrawler.app.archfixture.ProductUsesWebsim;
import io.github.kcrawler.common.archfixture.CommonUsesNetty;
import io.github.kcrawler.dedup.membership.archfixture.MembershipUsesKafka;
import io.github.kcrawler.fetcher.archfixture.FetcherUsesJsoup;
import io.github.kcrawler.ranker.pagerank.archfixture.PageRankUsesRocksDb;
import io.github.kcrawler.websim.archfixture.WebsimUsesService;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layering of issue 24, item 3, checked on the compiled main classes of every module (the lab's test classpath
 * has them all; test classes are not imported, so a product test may still crawl websim):
 * <ul>
 *   <li>no product module (crawler-common, embedded-kafka, the four services, crawler-app) depends on the lab or on
 *       websim;</li>
 *   <li>websim depends on no service, no crawler-app and no lab;</li>
 *   <li>the algorithm packages (the papers' classes) depend on neither Kafka nor RocksDB;</li>
 *   <li>Netty is used only in {@code fetcher.http} and websim, jsoup only in {@code fetcher.parse}.</li>
 * </ul>
 * Each rule is also run against a fixture that breaks it ({@code *.archfixture} packages of this module's tests), so
 * a rule that could not fail (a misspelt package, an empty import) fails here instead.
 *
 * <p>Exceptions: none. What the rules found was fixed: {@code RocksDbTimeKeyedStore} (paper 003's B-tree baseline on
 * RocksDB, in {@code scheduler.revisit}) moved to {@code scheduler.store}, where RocksDB belongs (STYLE.md), and
 * {@code RevisitRecords} serializes through {@code JsonSerde} itself rather than Kafka's {@code Serializer}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LayeringTest {
    static final String LAB = "io.github.kcrawler.lab..";
    static final String WEBSIM = "io.github.kcrawler.websim..";
    static final String[] SERVICES = {"io.github.kcrawler.fetcher..", "io.github.kcrawler.dedup..",
            "io.github.kcrawler.scheduler..", "io.github.kcrawler.ranker.."};
    static final String[] PRODUCT = {"io.github.kcrawler.common..", "io.github.kcrawler.kafka.embedded..",
            "io.github.kcrawler.fetcher..", "io.github.kcrawler.dedup..", "io.github.kcrawler.scheduler..",
            "io.github.kcrawler.ranker..", "io.github.kcrawler.app.."};
    /**
     * The papers' algorithm packages: URL-seen membership (paper 000), content dedup (001), the politeness wheel and
     * the frontiers over it (004), revisits and SAT/L (003), crawl ordering (002), the last also in the lab (the
     * simulator's orderings).
     */
    static final String[] ALGORITHMS = {"io.github.kcrawler.dedup.membership..", "io.github.kcrawler.dedup.content..",
            "io.github.kcrawler.scheduler.wheel..", "io.github.kcrawler.scheduler.politeness..",
            "io.github.kcrawler.scheduler.revisit..", "io.github.kcrawler.ranker.pagerank..",
            "io.github.kcrawler.lab.ranker.pagerank.."};

    static final ArchRule PRODUCT_WITHOUT_LAB_OR_WEBSIM = noClasses().that().resideInAnyPackage(PRODUCT)
            .should().dependOnClassesThat().resideInAnyPackage(LAB, WEBSIM)
            .because("the product ships without simulators and experiments; the lab depends on it, never the reverse");
    static final ArchRule WEBSIM_WITHOUT_SERVICES = noClasses().that().resideInAPackage(WEBSIM)
            .should().dependOnClassesThat().resideInAnyPackage(concat(SERVICES, "io.github.kcrawler.app..", LAB))
            .because("websim is the crawler's test web, not a part of it");
    static final ArchRule ALGORITHMS_WITHOUT_KAFKA_OR_ROCKSDB = noClasses().that().resideInAnyPackage(ALGORITHMS)
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "org.rocksdb..")
            .because("each paper's algorithm is a Kafka-free class; services are thin topologies over them");
    static final ArchRule NETTY_ONLY_IN_HTTP_AND_WEBSIM = noClasses().that().resideInAPackage("io.github.kcrawler..")
            .and().resideOutsideOfPackages("io.github.kcrawler.fetcher.http..", WEBSIM)
            .should().dependOnClassesThat().resideInAPackage("io.netty..")
            .because("only the HTTP package imports io.netty (STYLE.md)");
    static final ArchRule JSOUP_ONLY_IN_PARSE = noClasses().that().resideInAPackage("io.github.kcrawler..")
            .and().resideOutsideOfPackage("io.github.kcrawler.fetcher.parse..")
            .should().dependOnClassesThat().resideInAPackage("org.jsoup..")
            .because("only the parser package imports org.jsoup (STYLE.md)");

    JavaClasses main;

    @BeforeAll
    void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.github.kcrawler");
        // every module's main classes are there, or the rules below would hold vacuously
        Set<String> packages = main.stream().map(c -> c.getPackageName()).collect(Collectors.toSet());
        assertThat(packages).contains("io.github.kcrawler.common.config", "io.github.kcrawler.kafka.embedded",
                "io.github.kcrawler.fetcher.http", "io.github.kcrawler.fetcher.parse", "io.github.kcrawler.dedup.membership",
                "io.github.kcrawler.dedup.content", "io.github.kcrawler.scheduler.wheel", "io.github.kcrawler.scheduler.revisit",
                "io.github.kcrawler.ranker.pagerank", "io.github.kcrawler.app.cli", "io.github.kcrawler.websim",
                "io.github.kcrawler.lab.cli");
        assertThat(packages).noneMatch(p -> p.contains("archfixture"));
    }

    @Test
    void productModulesDependNeitherOnTheLabNorOnWebsim() {
        PRODUCT_WITHOUT_LAB_OR_WEBSIM.check(main);
    }

    @Test
    void websimDependsOnNoService() {
        WEBSIM_WITHOUT_SERVICES.check(main);
    }

    @Test
    void algorithmPackagesDependNeitherOnKafkaNorOnRocksDb() {
        ALGORITHMS_WITHOUT_KAFKA_OR_ROCKSDB.check(main);
    }

    @Test
    void nettyIsUsedOnlyInFetcherHttpAndWebsim() {
        NETTY_ONLY_IN_HTTP_AND_WEBSIM.check(main);
    }

    @Test
    void jsoupIsUsedOnlyInFetcherParse() {
        JSOUP_ONLY_IN_PARSE.check(main);
    }

    @Test
    void everyRuleCatchesAClassThatBreaksIt() {
        assertViolatedBy(PRODUCT_WITHOUT_LAB_OR_WEBSIM, ProductUsesLab.class);
        assertViolatedBy(PRODUCT_WITHOUT_LAB_OR_WEBSIM, ProductUsesWebsim.class);
        assertViolatedBy(WEBSIM_WITHOUT_SERVICES, WebsimUsesService.class);
        assertViolatedBy(ALGORITHMS_WITHOUT_KAFKA_OR_ROCKSDB, MembershipUsesKafka.class);
        assertViolatedBy(ALGORITHMS_WITHOUT_KAFKA_OR_ROCKSDB, PageRankUsesRocksDb.class);
        assertViolatedBy(NETTY_ONLY_IN_HTTP_AND_WEBSIM, CommonUsesNetty.class);
        assertViolatedBy(JSOUP_ONLY_IN_PARSE, FetcherUsesJsoup.class);
    }

    private static void assertViolatedBy(ArchRule rule, Class<?> fixture) {
        JavaClasses one = new ClassFileImporter().importClasses(fixture);
        assertThat(rule.evaluate(one).hasViolation()).as("%s breaks: %s", fixture.getSimpleName(), rule.getDescription())
                .isTrue();
    }

    private static String[] concat(String[] a, String... b) {
        return java.util.stream.Stream.concat(List.of(a).stream(), List.of(b).stream()).toArray(String[]::new);
    }
}
