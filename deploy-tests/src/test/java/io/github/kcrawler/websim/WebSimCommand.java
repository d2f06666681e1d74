package io.github.kcrawler.websim;

import picocli.CommandLine;

import java.util.List;

/**
 * The websim of a deployment file ({@code crawler websim ARGS}, the compose self-test's command) parsed by websim's
 * own command line into its configuration, so that deploy-tests serves exactly the web the file describes in the
 * test JVM (where its stats and reachable set can be read).
 */
public final class WebSimCommand {
    private WebSimCommand() {
    }

    public static WebSimConfig parse(List<String> args) {
        WebSimMain main = new WebSimMain();
        new CommandLine(main).parseArgs(args.toArray(String[]::new));
        return main.config();
    }
}
