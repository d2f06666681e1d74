package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.CrawlerMain;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./crawler} sends the product's verbs to crawler-app's jar and every other one to the lab's: the verbs it
 * names are exactly {@link CrawlerMain}'s, and the lab's command line has those and {@link LabMain#LAB_VERBS}, so no
 * verb lands in a jar without it (issue 24).
 */
class CrawlerScriptTest {
    @Test
    void scriptSendsExactlyTheProductVerbsToTheProductJar() throws IOException {
        String script = Files.readString(Path.of("..", "crawler"));
        Matcher m = Pattern.compile("(?m)^\\s*([a-z|]+)\\)\\s+jar=\"\\$app_jar\"").matcher(script);
        assertThat(m.find()).as("./crawler's case line for the product jar").isTrue();
        Set<String> scriptVerbs = new TreeSet<>(List.of(m.group(1).split("\\|")));
        assertThat(scriptVerbs).isEqualTo(verbs(new CommandLine(new CrawlerMain())));
        String version = System.getProperty("kcrawler.version"); // the pom's, passed by surefire
        assertThat(version).as("kcrawler.version").isNotBlank();
        assertThat(script).as("the jars the build makes for this version")
                .contains("crawler-lab/target/crawler-lab-" + version + "-all.jar")
                .contains("crawler-app/target/crawler-app-" + version + "-all.jar");
    }

    @Test
    void labCommandLineHasTheProductVerbsAndTheLabVerbs() {
        Set<String> product = verbs(new CommandLine(new CrawlerMain()));
        Set<String> expected = new TreeSet<>(product);
        expected.addAll(LabMain.LAB_VERBS);
        assertThat(verbs(LabMain.commandLine())).isEqualTo(expected);
        assertThat(product).doesNotContainAnyElementsOf(LabMain.LAB_VERBS);
    }

    private static Set<String> verbs(CommandLine cl) {
        Set<String> names = new TreeSet<>(cl.getSubcommands().keySet());
        names.remove("help");
        return names;
    }
}
