package io.github.kcrawler.app.archfixture;

/** Breaks LayeringTest's first rule on purpose: a product class that uses the lab. */
public final class ProductUsesLab {
    public static String main() {
        return io.github.kcrawler.lab.cli.LabMain.LAB_VERBS.get(0);
    }
}
