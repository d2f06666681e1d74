package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.common.serde.JsonSerde;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One self-contained HTML file for an experiment: its plots (SVG or PNG files, embedded as {@code data:} images, so
 * the file can be mailed or attached to an issue, and an SVG's scripts — if any — never run) and its JSON summaries
 * as tables. No script and nothing loaded from elsewhere; every text from the inputs is HTML-escaped.
 */
public final class ExperimentReport {
    /** Larger plots are refused: the report is meant to be opened in a browser. */
    static final long MAX_PLOT_BYTES = 20L << 20;
    /** Array elements shown per JSON array; the rest are counted. */
    static final int MAX_ARRAY_ITEMS = 20;
    /** JSON nesting shown as tables; deeper values are shown as compact JSON. */
    static final int MAX_DEPTH = 4;

    private ExperimentReport() {
    }

    /**
     * Writes the report.
     *
     * @param plots     image files, or directories whose {@code .svg} and {@code .png} files (sorted by name) are used
     * @param summaries JSON files
     */
    public static void write(Path out, String title, List<Path> plots, List<Path> summaries, String command)
            throws IOException {
        write(out, title, List.of(), plots, summaries, command);
    }

    /**
     * Writes the report with {@code notes} — paragraphs of plain text, e.g. how the figures compare with the
     * paper's — under the title.
     *
     * @param plots     image files, or directories whose {@code .svg} and {@code .png} files (sorted by name) are used
     * @param summaries JSON files
     */
    public static void write(Path out, String title, List<String> notes, List<Path> plots, List<Path> summaries,
            String command) throws IOException {
        List<Path> images = new ArrayList<>();
        for (Path p : plots) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> files = Files.list(p)) {
                    files.filter(ExperimentReport::isImage).sorted(Comparator.comparing(Path::toString))
                            .forEach(images::add);
                }
            } else if (!Files.exists(p)) {
                throw new NoSuchFileException(p.toString(), null, "no such plot file or directory");
            } else if (isImage(p)) {
                images.add(p);
            } else {
                throw new IllegalArgumentException("not an .svg or .png file or a directory: " + p);
            }
        }
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">
                <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>""").append(esc(title)).append("""
                </title>
                <style>
                body{font:14px/1.4 system-ui,sans-serif;color:#1d2430;margin:24px auto;max-width:1100px;padding:0 16px}
                h1{font-size:22px}h2{font-size:17px;margin-top:28px}figure{margin:16px 0;border:1px solid #e1e5ea;
                border-radius:6px;padding:8px}figure img{max-width:100%;height:auto;display:block;margin:auto}
                figcaption{color:#5f6b7a;font-size:12px;margin-top:4px}table{border-collapse:collapse;margin:4px 0}
                td,th{border:1px solid #e1e5ea;padding:2px 6px;vertical-align:top;text-align:left}
                th{background:#f6f7f9;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
                code,pre{background:#f6f7f9;padding:2px 4px;border-radius:3px;white-space:pre-wrap}.muted{color:#5f6b7a}
                nav a{margin-right:12px}
                </style></head><body>
                """);
        html.append("<h1>").append(esc(title)).append("</h1>\n<p class=\"muted\">Generated ")
                .append(esc(Instant.now().toString())).append(" by <code>crawler report</code>");
        if (command != null && !command.isBlank()) {
            html.append("; experiment command: <code>").append(esc(command)).append("</code>");
        }
        html.append("</p>\n");
        for (String note : notes) {
            html.append("<p>").append(esc(note)).append("</p>\n");
        }
        if (!images.isEmpty()) {
            html.append("<h2 id=\"plots\">Plots</h2>\n");
            for (Path image : images) {
                figure(html, image);
            }
        }
        for (Path summary : summaries) {
            if (!Files.isRegularFile(summary)) {
                throw new NoSuchFileException(summary.toString(), null, "no such summary file");
            }
            JsonNode json;
            try {
                json = JsonSerde.MAPPER.readTree(summary.toFile());
            } catch (IOException e) {
                throw new IOException("not a JSON file: " + summary + " (" + e.getMessage() + ")", e);
            }
            html.append("<h2>Summary: ").append(esc(summary.getFileName().toString())).append("</h2>\n");
            value(html, json, 0);
        }
        html.append("</body></html>\n");
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(out, html, StandardCharsets.UTF_8);
    }

    private static boolean isImage(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return Files.isRegularFile(p) && (n.endsWith(".svg") || n.endsWith(".png"));
    }

    private static void figure(StringBuilder html, Path image) throws IOException {
        long size = Files.size(image);
        if (size > MAX_PLOT_BYTES) {
            throw new IOException("plot larger than " + MAX_PLOT_BYTES + " bytes: " + image);
        }
        String name = image.getFileName().toString();
        String type = name.toLowerCase(Locale.ROOT).endsWith(".svg") ? "image/svg+xml" : "image/png";
        html.append("<figure><img alt=\"").append(esc(name)).append("\" src=\"data:").append(type).append(";base64,")
                .append(Base64.getEncoder().encodeToString(Files.readAllBytes(image)))
                .append("\"><figcaption>").append(esc(name)).append("</figcaption></figure>\n");
    }

    private static void value(StringBuilder html, JsonNode node, int depth) {
        if (node.isObject()) {
            if (depth >= MAX_DEPTH) {
                html.append("<code>").append(esc(node.toString())).append("</code>");
                return;
            }
            html.append("<table>");
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                html.append("<tr><th>").append(esc(e.getKey())).append("</th>");
                cell(html, e.getValue(), depth);
                html.append("</tr>");
            }
            html.append("</table>");
        } else if (node.isArray()) {
            boolean scalars = true;
            for (JsonNode n : node) {
                scalars &= n.isValueNode();
            }
            if (scalars) {
                StringBuilder list = new StringBuilder();
                int i = 0;
                for (JsonNode n : node) {
                    if (i++ == MAX_ARRAY_ITEMS) {
                        list.append(", … (").append(node.size()).append(" in all)");
                        break;
                    }
                    list.append(i > 1 ? ", " : "").append(n.isTextual() ? n.asText() : n.toString());
                }
                html.append(esc(list.toString()));
            } else if (depth >= MAX_DEPTH) {
                html.append("<code>").append(esc(node.toString())).append("</code>");
            } else {
                int i = 0;
                for (JsonNode n : node) {
                    if (i++ == MAX_ARRAY_ITEMS) {
                        html.append("<p class=\"muted\">… ").append(node.size() - MAX_ARRAY_ITEMS)
                                .append(" more</p>");
                        break;
                    }
                    value(html, n, depth + 1);
                }
            }
        } else {
            html.append(esc(node.isTextual() ? node.asText() : node.toString()));
        }
    }

    private static void cell(StringBuilder html, JsonNode v, int depth) {
        html.append(v.isNumber() ? "<td class=\"num\">" : "<td>");
        value(html, v, depth + 1);
        html.append("</td>");
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
