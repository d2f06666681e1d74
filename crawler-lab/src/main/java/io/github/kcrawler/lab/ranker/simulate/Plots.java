package io.github.kcrawler.lab.ranker.simulate;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * PNG charts of the crawl-ordering experiment (the paper's Figures 4–10), drawn with plain Java2D so the project
 * needs no plotting library: line charts of a criterion against the share of pages crawled, and a bar chart of
 * speeds. Runs headless ({@code java.awt.headless} is set before the first drawing). Each strategy keeps its colour
 * across figures.
 */
public final class Plots {

    private static final int WIDTH = 960;
    private static final int HEIGHT = 600;
    private static final int LEFT = 110;
    private static final int RIGHT = 190;
    private static final int TOP = 60;
    private static final int BOTTOM = 70;
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd),
        new Color(0xd62728), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
        new Color(0x000000), new Color(0xbcbd22)};
    private static final List<String> COLOUR_ORDER =
            io.github.kcrawler.lab.ranker.pagerank.Strategies.ALL;

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Plots() {
    }

    /** The colour of a strategy (stable across figures). */
    static Color colour(String name) {
        int i = COLOUR_ORDER.indexOf(name);
        return PALETTE[Math.floorMod(i >= 0 ? i : name.hashCode(), PALETTE.length)];
    }

    /**
     * A line chart of curves sampled at 1%, 2%, … 100% of pages crawled.
     *
     * @param series strategy name → 100 values
     * @param yMin   lower end of the y axis (NaN: from the data)
     * @param yMax   upper end (NaN: from the data)
     */
    public static void lineChart(Path file, String title, String yLabel, Map<String, double[]> series, double yMin,
            double yMax) throws IOException {
        double lo = yMin;
        double hi = yMax;
        if (Double.isNaN(lo) || Double.isNaN(hi)) {
            double dataLo = Double.POSITIVE_INFINITY;
            double dataHi = Double.NEGATIVE_INFINITY;
            for (double[] ys : series.values()) {
                for (double y : ys) {
                    dataLo = Math.min(dataLo, y);
                    dataHi = Math.max(dataHi, y);
                }
            }
            double pad = Math.max(1e-9, (dataHi - dataLo) * 0.05);
            lo = Double.isNaN(lo) ? dataLo - pad : lo;
            hi = Double.isNaN(hi) ? dataHi + pad : hi;
        }
        if (!(hi > lo)) {
            hi = lo + 1;
        }
        BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(img, title);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        axes(g, plotW, plotH, "pages crawled (%)", yLabel);
        FontMetrics fm = g.getFontMetrics();
        for (int i = 0; i <= 10; i++) {
            int x = LEFT + plotW * i / 10;
            gridLine(g, x, TOP, x, TOP + plotH);
            String label = Integer.toString(i * 10);
            g.drawString(label, x - fm.stringWidth(label) / 2, TOP + plotH + 18);
        }
        double[] ticks = ticks(lo, hi);
        for (double t : ticks) {
            int y = TOP + plotH - (int) Math.round((t - lo) / (hi - lo) * plotH);
            gridLine(g, LEFT, y, LEFT + plotW, y);
            String label = format(t, hi - lo);
            g.drawString(label, LEFT - 8 - fm.stringWidth(label), y + 5);
        }
        g.setClip(LEFT, TOP, plotW + 1, plotH + 1);
        for (Map.Entry<String, double[]> e : series.entrySet()) {
            double[] ys = e.getValue();
            Path2D.Double path = new Path2D.Double();
            for (int j = 0; j < ys.length; j++) {
                double x = LEFT + plotW * (j + 1.0) / ys.length;
                double y = TOP + plotH - (ys[j] - lo) / (hi - lo) * plotH;
                if (j == 0) {
                    path.moveTo(x, y);
                } else {
                    path.lineTo(x, y);
                }
            }
            g.setColor(colour(e.getKey()));
            g.setStroke(new BasicStroke(2.2f));
            g.draw(path);
        }
        g.setClip(null);
        legend(g, series.keySet());
        write(img, g, file);
    }

    /** A bar chart of one value per strategy (the paper's Figure 10). */
    public static void barChart(Path file, String title, String yLabel, Map<String, Double> values) throws IOException {
        BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(img, title);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        double hi = 0;
        for (double v : values.values()) {
            hi = Math.max(hi, v);
        }
        hi = hi > 0 ? hi * 1.1 : 1;
        axes(g, plotW, plotH, "strategy", yLabel);
        FontMetrics fm = g.getFontMetrics();
        for (double t : ticks(0, hi)) {
            int y = TOP + plotH - (int) Math.round(t / hi * plotH);
            gridLine(g, LEFT, y, LEFT + plotW, y);
            String label = format(t, hi);
            g.drawString(label, LEFT - 8 - fm.stringWidth(label), y + 5);
        }
        int n = Math.max(1, values.size());
        int slot = plotW / n;
        int i = 0;
        for (Map.Entry<String, Double> e : values.entrySet()) {
            int h = (int) Math.round(e.getValue() / hi * plotH);
            int x = LEFT + i * slot + slot / 6;
            g.setColor(colour(e.getKey()));
            g.fillRect(x, TOP + plotH - h, slot * 2 / 3, h);
            g.setColor(Color.BLACK);
            String name = e.getKey();
            g.drawString(name, LEFT + i * slot + (slot - fm.stringWidth(name)) / 2, TOP + plotH + 18);
            String v = String.format(Locale.ROOT, "%,.0f", e.getValue());
            g.drawString(v, LEFT + i * slot + (slot - fm.stringWidth(v)) / 2, TOP + plotH - h - 6);
            i++;
        }
        write(img, g, file);
    }

    private static Graphics2D canvas(BufferedImage img, String title) {
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString(title, LEFT, 35);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        return g;
    }

    private static void axes(Graphics2D g, int plotW, int plotH, String xLabel, String yLabel) {
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1.2f));
        g.drawRect(LEFT, TOP, plotW, plotH);
        FontMetrics fm = g.getFontMetrics();
        g.drawString(xLabel, LEFT + (plotW - fm.stringWidth(xLabel)) / 2, HEIGHT - 25);
        Graphics2D r = (Graphics2D) g.create();
        r.rotate(-Math.PI / 2);
        r.drawString(yLabel, -(TOP + (plotH + fm.stringWidth(yLabel)) / 2), 22);
        r.dispose();
    }

    private static void gridLine(Graphics2D g, int x1, int y1, int x2, int y2) {
        g.setColor(new Color(0xdddddd));
        g.setStroke(new BasicStroke(1f));
        g.drawLine(x1, y1, x2, y2);
        g.setColor(Color.BLACK);
    }

    private static void legend(Graphics2D g, Iterable<String> names) {
        int x = WIDTH - RIGHT + 20;
        int y = TOP + 10;
        for (String name : names) {
            g.setColor(colour(name));
            g.setStroke(new BasicStroke(3f));
            g.drawLine(x, y, x + 30, y);
            g.setColor(Color.BLACK);
            g.drawString(name, x + 38, y + 5);
            y += 24;
        }
    }

    /** About five round tick values covering [lo, hi]. */
    static double[] ticks(double lo, double hi) {
        double raw = (hi - lo) / 5;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = mag;
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * mag >= raw) {
                step = m * mag;
                break;
            }
        }
        double first = Math.ceil(lo / step - 1e-9) * step;
        int n = (int) Math.floor((hi - first) / step + 1e-9) + 1;
        double[] out = new double[Math.max(0, n)];
        for (int i = 0; i < out.length; i++) {
            out[i] = first + i * step;
        }
        return out;
    }

    private static String format(double v, double range) {
        if (range >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        int decimals = (int) Math.max(0, Math.min(6, 2 - Math.floor(Math.log10(range))));
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static void write(BufferedImage img, Graphics2D g, Path file) throws IOException {
        g.dispose();
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!ImageIO.write(img, "png", file.toFile())) {
            throw new IOException("no PNG writer available for " + file);
        }
    }
}
