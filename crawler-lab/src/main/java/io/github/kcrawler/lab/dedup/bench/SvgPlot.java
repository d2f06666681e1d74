package io.github.kcrawler.lab.dedup.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A minimal SVG line chart (log-scale x, linear y) for the benchmark figures, so a reader of BENCHMARKS.md sees the
 * paper's Fig. 9/10 shape without a plotting dependency. Series are drawn as polylines with point markers; the
 * title may have a second line (after a newline) in a smaller font.
 */
final class SvgPlot {
    /** One curve: its label, colour and points (x > 0). */
    record Series(String label, String colour, double[] x, double[] y) {
    }

    private static final int WIDTH = 760;
    private static final int HEIGHT = 480;
    private static final int LEFT = 70;
    private static final int RIGHT = 200;
    private static final int TOP = 56;
    private static final int BOTTOM = 60;

    private SvgPlot() {
    }

    static void write(Path file, String title, String xLabel, String yLabel, List<Series> series) throws IOException {
        double minX = Double.MAX_VALUE;
        double maxX = -Double.MAX_VALUE;
        double minY = Double.MAX_VALUE;
        double maxY = -Double.MAX_VALUE;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                minX = Math.min(minX, s.x()[i]);
                maxX = Math.max(maxX, s.x()[i]);
                minY = Math.min(minY, s.y()[i]);
                maxY = Math.max(maxY, s.y()[i]);
            }
        }
        if (minX == Double.MAX_VALUE) {
            minX = 1;
            maxX = 10;
            minY = 0;
            maxY = 1;
        }
        double lx0 = Math.floor(Math.log10(minX));
        double lx1 = Math.ceil(Math.log10(maxX));
        if (lx1 <= lx0) {
            lx1 = lx0 + 1;
        }
        double y0 = Math.floor(minY * 20) / 20;
        double y1 = Math.ceil(maxY * 20) / 20;
        if (y1 <= y0) {
            y1 = y0 + 0.05;
        }
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        String[] titleLines = title.split("\n");
        for (int i = 0; i < titleLines.length; i++) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">%s</text>%n", LEFT,
                    20 + 16 * i, i == 0 ? 15 : 11, escape(titleLines[i])));
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#444\"/>%n", LEFT, TOP, plotW, plotH));
        for (double e = lx0; e <= lx1 + 1e-9; e++) {
            double px = LEFT + (e - lx0) / (lx1 - lx0) * plotW;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    px, TOP, px, TOP + plotH));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", px,
                    TOP + plotH + 18, bytesLabel(Math.pow(10, e))));
        }
        int ticks = (int) Math.round((y1 - y0) / 0.05);
        int step = Math.max(1, ticks / 10);
        for (int t = 0; t <= ticks; t += step) {
            double v = y0 + t * 0.05;
            double py = TOP + plotH - (v - y0) / (y1 - y0) * plotH;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    LEFT, py, LEFT + plotW, py));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>%n",
                    LEFT - 6, py + 4, v));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, HEIGHT - 18, escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 18 %d)\">%s</text>%n", TOP + plotH / 2, TOP + plotH / 2, escape(yLabel)));
        int legendY = TOP + 10;
        for (Series s : series) {
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < s.x().length; i++) {
                double px = LEFT + (Math.log10(s.x()[i]) - lx0) / (lx1 - lx0) * plotW;
                double py = TOP + plotH - (s.y()[i] - y0) / (y1 - y0) * plotH;
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", px,
                        py, s.colour()));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"2\"/>%n", pts.toString().trim(), s.colour()));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"3\"/>%n", LEFT + plotW + 12, legendY, LEFT + plotW + 32, legendY, s.colour()));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", LEFT + plotW + 38,
                    legendY + 4, escape(s.label())));
            legendY += 20;
        }
        svg.append("</svg>\n");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, svg);
    }

    private static String bytesLabel(double bytes) {
        if (bytes >= 1e9) {
            return String.format(Locale.ROOT, "%.0f GB", bytes / 1e9);
        }
        if (bytes >= 1e6) {
            return String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
        }
        if (bytes >= 1e3) {
            return String.format(Locale.ROOT, "%.0f kB", bytes / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f B", bytes);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
