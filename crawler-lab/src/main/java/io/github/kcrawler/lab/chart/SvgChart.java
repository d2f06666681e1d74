package io.github.kcrawler.lab.chart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The lab's one chart writer (issue 24 item 2): minimal SVG charts for every experiment, benchmark, fault scenario
 * and soak (no plotting library): line charts with numeric x and y axes, each linear or logarithmic, one polyline per
 * series with markers optional, the y range from the data or fixed; grouped bar charts over named categories, each
 * bar labelled with its value; a legend on the right. A title may have a second line (after a newline) in a smaller
 * font, e.g. the paper's figure. Text is XML-escaped. Points that a log axis cannot show (≤ 0) and non-finite points
 * are left out, never fail a chart. Each writer returns the file it wrote, so a plot class can list its figures.
 */
public final class SvgChart {

    /** One curve. */
    public record Series(String name, double[] x, double[] y, boolean markers) {
    }

    /** One group member of a bar chart: its value in each category (NaN: no bar). */
    public record Bars(String name, double[] values) {
    }

    private static final int WIDTH = 960;
    private static final int HEIGHT = 600;
    private static final int LEFT = 100;
    private static final int RIGHT = 250;
    private static final int TOP = 50;
    private static final int BOTTOM = 70;
    private static final String[] PALETTE = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

    private SvgChart() {
    }

    /** A line chart, both axes' ranges from the data (a linear y axis from 0 or below). */
    public static Path write(Path file, String title, String xLabel, String yLabel, List<Series> series,
            boolean logX, boolean logY) throws IOException {
        return write(file, title, xLabel, yLabel, series, logX, logY, Double.NaN, Double.NaN);
    }

    /**
     * A line chart whose y axis spans [{@code yMin}, {@code yMax}] where they are given (NaN: from the data; a linear
     * axis then starts at 0 or below). Points outside a fixed range are drawn at their place outside the frame.
     */
    public static Path write(Path file, String title, String xLabel, String yLabel, List<Series> series,
            boolean logX, boolean logY, double yMin, double yMax) throws IOException {
        double xlo = Double.POSITIVE_INFINITY;
        double xhi = Double.NEGATIVE_INFINITY;
        double ylo = Double.POSITIVE_INFINITY;
        double yhi = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                double x = s.x()[i];
                double y = s.y()[i];
                if ((logX && !(x > 0)) || (logY && !(y > 0)) || !Double.isFinite(x) || !Double.isFinite(y)) {
                    continue;
                }
                xlo = Math.min(xlo, x);
                xhi = Math.max(xhi, x);
                ylo = Math.min(ylo, y);
                yhi = Math.max(yhi, y);
            }
        }
        if (!(xhi >= xlo)) {
            xlo = logX ? 1 : 0;
            xhi = logX ? 10 : 1;
        }
        if (!(yhi >= ylo)) {
            ylo = logY ? 1 : 0;
            yhi = logY ? 10 : 1;
        }
        if (!logY && Double.isNaN(yMin)) {
            ylo = Math.min(0, ylo);
        }
        if (!Double.isNaN(yMin)) {
            ylo = yMin;
        }
        if (!Double.isNaN(yMax)) {
            yhi = Math.max(yMax, ylo);
        }
        if (!logX && xlo > 0) {
            xlo = 0;
        }
        if (xhi == xlo) {
            xhi = logX ? xlo * 10 : xlo + 1;
        }
        if (yhi == ylo) {
            yhi = logY ? ylo * 10 : ylo + 1;
        }
        Axis ax = new Axis(xlo, xhi, logX, LEFT, WIDTH - RIGHT);
        Axis ay = new Axis(ylo, yhi, logY, HEIGHT - BOTTOM, TOP);
        StringBuilder sb = start(title, yLabel);
        text(sb, (LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 22, xLabel, "middle", 13);
        for (double v : ax.ticks()) {
            double px = ax.map(v);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    px, TOP, px, HEIGHT - BOTTOM));
            text(sb, px, HEIGHT - BOTTOM + 18, label(v), "middle", 12);
        }
        yTicks(sb, ay);
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"black\"/>%n", LEFT, TOP, WIDTH - RIGHT - LEFT, HEIGHT - BOTTOM - TOP));
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            String colour = PALETTE[k % PALETTE.length];
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < s.x().length; i++) {
                double x = s.x()[i];
                double y = s.y()[i];
                if ((logX && !(x > 0)) || (logY && !(y > 0)) || !Double.isFinite(x) || !Double.isFinite(y)) {
                    continue;
                }
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", ax.map(x), ay.map(y)));
                if (s.markers()) {
                    sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n",
                            ax.map(x), ay.map(y), colour));
                }
            }
            String dash = k >= PALETTE.length ? " stroke-dasharray=\"6 3\"" : "";
            sb.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
                    + "points=\"%s\"/>%n", colour, dash, pts.toString().trim()));
            double ly = TOP + 10 + k * 20;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                    + "stroke-width=\"3\"%s/>%n", WIDTH - RIGHT + 12, ly, WIDTH - RIGHT + 36, ly, colour, dash));
            text(sb, WIDTH - RIGHT + 42, ly + 4, s.name(), "start", 12);
        }
        sb.append("</svg>\n");
        save(file, sb);
        return file;
    }

    /**
     * A grouped bar chart: one group of bars per category, one bar per {@code series} in each group, every bar
     * labelled with its value. With {@code logY} non-positive values get no bar.
     */
    public static Path writeBars(Path file, String title, String yLabel, List<String> categories, List<Bars> series,
            boolean logY) throws IOException {
        for (Bars b : series) {
            if (b.values().length != categories.size()) {
                throw new IllegalArgumentException("series " + b.name() + " has " + b.values().length
                        + " values for " + categories.size() + " categories");
            }
        }
        double ylo = Double.POSITIVE_INFINITY;
        double yhi = Double.NEGATIVE_INFINITY;
        for (Bars b : series) {
            for (double v : b.values()) {
                if (Double.isFinite(v) && (!logY || v > 0)) {
                    ylo = Math.min(ylo, v);
                    yhi = Math.max(yhi, v);
                }
            }
        }
        if (!(yhi >= ylo)) {
            ylo = logY ? 1 : 0;
            yhi = logY ? 10 : 1;
        }
        if (logY) {
            ylo = Math.pow(10, Math.floor(Math.log10(ylo)));
            yhi = Math.max(yhi * 1.5, ylo * 10);
        } else {
            ylo = Math.min(0, ylo);
            yhi = yhi <= ylo ? ylo + 1 : yhi + (yhi - ylo) * 0.08; // room for the value labels
        }
        Axis ay = new Axis(ylo, yhi, logY, HEIGHT - BOTTOM, TOP);
        StringBuilder sb = start(title, yLabel);
        yTicks(sb, ay);
        double groupWidth = (WIDTH - RIGHT - LEFT) / (double) Math.max(1, categories.size());
        double barWidth = groupWidth * 0.8 / Math.max(1, series.size());
        double base = ay.map(logY ? ylo : Math.max(0, ylo));
        for (int c = 0; c < categories.size(); c++) {
            double gx = LEFT + c * groupWidth;
            String cat = categories.get(c);
            int split = cat.length() * 7 > groupWidth ? splitPoint(cat) : -1; // ~7 px a character at 12 px
            if (split < 0) {
                text(sb, gx + groupWidth / 2, HEIGHT - BOTTOM + 18, cat, "middle", 12);
            } else {
                text(sb, gx + groupWidth / 2, HEIGHT - BOTTOM + 16, cat.substring(0, split).trim(), "middle", 11);
                text(sb, gx + groupWidth / 2, HEIGHT - BOTTOM + 30, cat.substring(split).trim(), "middle", 11);
            }
            for (int k = 0; k < series.size(); k++) {
                double v = series.get(k).values()[c];
                if (!Double.isFinite(v) || (logY && !(v > 0))) {
                    continue;
                }
                double x = gx + groupWidth * 0.1 + k * barWidth;
                double top = ay.map(v);
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                        + "fill=\"%s\"/>%n", x, Math.min(top, base), Math.max(0.5, barWidth - 2),
                        Math.max(0.5, Math.abs(base - top)), PALETTE[k % PALETTE.length]));
                text(sb, x + (barWidth - 2) / 2, Math.min(top, base) - 4, value(v), "middle",
                        barWidth < 40 ? 9 : 11);
            }
        }
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"black\"/>%n", LEFT, TOP, WIDTH - RIGHT - LEFT, HEIGHT - BOTTOM - TOP));
        for (int k = 0; k < series.size(); k++) {
            double ly = TOP + 10 + k * 20;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"24\" height=\"10\" fill=\"%s\"/>%n",
                    WIDTH - RIGHT + 12, ly - 5, PALETTE[k % PALETTE.length]));
            text(sb, WIDTH - RIGHT + 42, ly + 4, series.get(k).name(), "start", 12);
        }
        sb.append("</svg>\n");
        save(file, sb);
        return file;
    }

    /** The document's start: the white canvas, the title and the y axis's label. */
    private static StringBuilder start(String title, String yLabel) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"13\">%n", WIDTH, HEIGHT));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        title(sb, title);
        sb.append(String.format(Locale.ROOT, "<text x=\"22\" y=\"%.1f\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 22 %.1f)\">%s</text>%n", (TOP + HEIGHT - BOTTOM) / 2.0,
                (TOP + HEIGHT - BOTTOM) / 2.0, esc(yLabel)));
        return sb;
    }

    /** The y axis's grid lines and tick labels. */
    private static void yTicks(StringBuilder sb, Axis ay) {
        for (double v : ay.ticks()) {
            double py = ay.map(v);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    LEFT, py, WIDTH - RIGHT, py));
            text(sb, LEFT - 6, py + 4, label(v), "end", 12);
        }
    }

    private static void save(Path file, StringBuilder sb) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    }

    /** The title, and its second line (after a newline) in a smaller font. */
    private static void title(StringBuilder sb, String title) {
        int nl = title.indexOf('\n');
        if (nl < 0) {
            text(sb, WIDTH / 2.0 - RIGHT / 2.0, 28, title, "middle", 16);
        } else {
            text(sb, WIDTH / 2.0 - RIGHT / 2.0, 22, title.substring(0, nl), "middle", 15);
            String sub = title.substring(nl + 1).replace('\n', ' ');
            if (sub.length() * 6.6 <= WIDTH - RIGHT) { // ~6.6 px a character at 12 px: centred over the plot
                text(sb, WIDTH / 2.0 - RIGHT / 2.0, 40, sub, "middle", 12);
            } else { // longer: from the left edge, smaller, over the legend's width too
                text(sb, 8, 40, sub, "start", sub.length() * 6 <= WIDTH - 16 ? 11 : 10);
            }
        }
    }

    /** The space nearest the middle of a category label, to break it in two lines; -1 if it has none. */
    private static int splitPoint(String s) {
        int best = -1;
        for (int i = s.indexOf(' '); i >= 0; i = s.indexOf(' ', i + 1)) {
            if (best < 0 || Math.abs(i - s.length() / 2) < Math.abs(best - s.length() / 2)) {
                best = i;
            }
        }
        return best;
    }

    /** A bar's value label: 4 significant digits, grouped thousands. */
    private static String value(double v) {
        double a = Math.abs(v);
        if (a >= 1e4 && a < 1e12) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 1e12 || (a > 0 && a < 1e-3)) {
            return String.format(Locale.ROOT, "%.3e", v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }

    private static void text(StringBuilder sb, double x, double y, String s, String anchor, int size) {
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s"
                + "</text>%n", x, y, anchor, size, esc(s)));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String label(double v) {
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        if (a >= 1e9 || a < 1e-3) {
            return String.format(Locale.ROOT, "%.0e", v);
        }
        if (a >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private record Axis(double lo, double hi, boolean log, double from, double to) {
        double map(double v) {
            double f = log ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : (v - lo) / (hi - lo);
            return from + f * (to - from);
        }

        double[] ticks() {
            if (log && hi / lo <= 4096) { // parameter sweeps over powers of two: label those
                java.util.List<Double> t = new java.util.ArrayList<>();
                for (double v = Math.pow(2, Math.ceil(Math.log(lo) / Math.log(2) - 1e-9)); v <= hi * 1.001; v *= 2) {
                    t.add(v);
                }
                return t.stream().mapToDouble(Double::doubleValue).toArray();
            }
            if (log) {
                int a = (int) Math.floor(Math.log10(lo));
                int b = (int) Math.ceil(Math.log10(hi));
                java.util.List<Double> t = new java.util.ArrayList<>();
                for (int e = a; e <= b; e++) {
                    double v = Math.pow(10, e);
                    if (v >= lo * 0.999 && v <= hi * 1.001) {
                        t.add(v);
                    }
                }
                if (t.size() < 2) {
                    t.add(lo);
                    t.add(hi);
                }
                return t.stream().mapToDouble(Double::doubleValue).toArray();
            }
            double span = hi - lo;
            double step = Math.pow(10, Math.floor(Math.log10(span / 5)));
            if (span / step > 10) {
                step *= 2;
            }
            if (span / step > 10) {
                step *= 2.5;
            }
            double first = Math.ceil(lo / step) * step;
            int n = (int) Math.floor((hi - first) / step + 1e-9) + 1;
            double[] t = new double[Math.max(0, n)];
            for (int i = 0; i < t.length; i++) {
                t[i] = first + i * step;
            }
            return t;
        }
    }
}
