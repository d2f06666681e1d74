package io.github.kcrawler.app.cli;

import io.github.kcrawler.ranker.simulate.OrderingMain;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code crawler simulate}: the papers' experiments on a graph in memory, with no HTTP and no Kafka, running the
 * same algorithm classes as the services. {@code --experiment ordering} (paper 002) is available; its settings are
 * listed by {@code crawler simulate --help}.
 */
@Command(name = "simulate", description = "Experiments on a graph in memory (--experiment ordering; --help lists settings).")
public final class SimulateCommand implements Runnable {
    @Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public void run() {
        OrderingMain.main(args.toArray(String[]::new));
    }
}
