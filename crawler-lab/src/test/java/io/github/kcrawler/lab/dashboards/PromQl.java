package io.github.kcrawler.lab.dashboards;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A recursive-descent parser for the PromQL the dashboards use — vector selectors with matchers, range selectors
 * and subqueries, {@code offset}, function calls, aggregations with {@code by}/{@code without}, binary operators with
 * {@code bool}/{@code on}/{@code ignoring}/{@code group_left}/{@code group_right}, numbers, strings and Grafana
 * variables in durations — returning the metric names an expression reads. It checks syntax, not types (a range
 * vector where an instant vector belongs is not caught; Prometheus would). Anything outside the grammar is an
 * {@link IllegalArgumentException} naming the position.
 */
final class PromQl {
    static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar", "count",
            "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio");
    static final Set<String> FUNCTIONS = Set.of("abs", "absent", "absent_over_time", "ceil", "changes", "clamp",
            "clamp_max", "clamp_min", "day_of_month", "day_of_week", "days_in_month", "delta", "deriv", "exp", "floor",
            "histogram_quantile", "holt_winters", "hour", "idelta", "increase", "irate", "label_join",
            "label_replace", "ln", "log2", "log10", "minute", "month", "predict_linear", "rate", "resets", "round",
            "scalar", "sgn", "sort", "sort_desc", "sqrt", "time", "timestamp", "vector", "year", "avg_over_time",
            "min_over_time", "max_over_time", "sum_over_time", "count_over_time", "quantile_over_time",
            "stddev_over_time", "stdvar_over_time", "last_over_time", "present_over_time");
    private static final Set<String> BINARY = Set.of("+", "-", "*", "/", "%", "^", "==", "!=", "<", ">", "<=", ">=",
            "and", "or", "unless");
    private static final Set<String> MATCH_OPS = Set.of("=", "!=", "=~", "!~");

    private final List<String> tokens;
    private int pos;
    private final Set<String> metrics = new LinkedHashSet<>();

    private PromQl(List<String> tokens) {
        this.tokens = tokens;
    }

    /** The metric names {@code expr} reads; throws if it does not parse. */
    static Set<String> metricNames(String expr) {
        PromQl p = new PromQl(tokenize(expr));
        p.expression();
        if (p.pos != p.tokens.size()) {
            throw p.error("unexpected '" + p.peek() + "'");
        }
        return p.metrics;
    }

    private void expression() {
        unary();
        while (BINARY.contains(peek())) {
            pos++;
            if ("bool".equals(peek())) {
                pos++;
            }
            if ("on".equals(peek()) || "ignoring".equals(peek())) {
                pos++;
                labelList();
            }
            if ("group_left".equals(peek()) || "group_right".equals(peek())) {
                pos++;
                if ("(".equals(peek())) {
                    labelList();
                }
            }
            unary();
        }
    }

    private void unary() {
        if ("-".equals(peek()) || "+".equals(peek())) {
            pos++;
        }
        primary();
        if ("[".equals(peek())) {
            pos++;
            duration();
            if (":".equals(peek())) {
                pos++;
                if (!"]".equals(peek())) {
                    duration();
                }
            }
            expect("]");
        }
        if ("offset".equals(peek())) {
            pos++;
            if ("-".equals(peek())) {
                pos++;
            }
            duration();
        }
    }

    private void primary() {
        String t = next();
        if (t.isEmpty()) {
            throw error("expression ends too early");
        }
        if (t.equals("(")) {
            expression();
            expect(")");
        } else if (t.startsWith("\"")) {
            return; // string literal
        } else if (isNumber(t)) {
            return;
        } else if (t.equals("{")) {
            matchers();
        } else if (AGGREGATIONS.contains(t)) {
            grouping();
            expect("(");
            expression();
            if (",".equals(peek())) {
                pos++;
                expression();
            }
            expect(")");
            grouping();
        } else if (FUNCTIONS.contains(t) && "(".equals(peek())) {
            pos++;
            if (!")".equals(peek())) {
                expression();
                while (",".equals(peek())) {
                    pos++;
                    expression();
                }
            }
            expect(")");
        } else if (isIdentifier(t)) {
            metrics.add(t);
            if ("{".equals(peek())) {
                pos++;
                matchers();
            }
        } else {
            throw error("unexpected '" + t + "'");
        }
    }

    private void grouping() {
        if ("by".equals(peek()) || "without".equals(peek())) {
            pos++;
            labelList();
        }
    }

    private void labelList() {
        expect("(");
        if (")".equals(peek())) {
            pos++;
            return;
        }
        do {
            String label = next();
            if (!isIdentifier(label)) {
                throw error("label name expected, was '" + label + "'");
            }
        } while (",".equals(peek()) && pos++ >= 0 && !")".equals(peek()));
        expect(")");
    }

    /** After '{': label op "value" pairs up to '}'. */
    private void matchers() {
        while (!"}".equals(peek())) {
            String label = next();
            if (!isIdentifier(label)) {
                throw error("label name expected, was '" + label + "'");
            }
            String op = next();
            if (!MATCH_OPS.contains(op)) {
                throw error("matcher operator expected, was '" + op + "'");
            }
            String value = next();
            if (!value.startsWith("\"")) {
                throw error("quoted label value expected, was '" + value + "'");
            }
            if (",".equals(peek())) {
                pos++;
            } else if (!"}".equals(peek())) {
                throw error("',' or '}' expected");
            }
        }
        pos++;
    }

    private void duration() {
        String t = next();
        if (!(t.matches("(\\d+(ms|s|m|h|d|w|y))+") || t.matches("\\$\\{?\\w+}?"))) {
            throw error("duration expected, was '" + t + "'");
        }
    }

    private void expect(String token) {
        String t = next();
        if (!token.equals(t)) {
            throw error("'" + token + "' expected, was '" + t + "'");
        }
    }

    /** The next token, or "" at the end (Set.of(...).contains(null) would throw). */
    private String peek() {
        return pos < tokens.size() ? tokens.get(pos) : "";
    }

    private String next() {
        return pos < tokens.size() ? tokens.get(pos++) : "";
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException(message + " at token " + pos + " of " + tokens);
    }

    private static boolean isNumber(String t) {
        return t.matches("\\d+(\\.\\d*)?([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?|Inf|NaN");
    }

    private static boolean isIdentifier(String t) {
        return t.matches("[a-zA-Z_:][a-zA-Z0-9_:]*");
    }

    static List<String> tokenize(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != c) {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                if (j >= s.length()) {
                    throw new IllegalArgumentException("unterminated string in " + s);
                }
                out.add("\"" + s.substring(i + 1, j) + "\"");
                i = j + 1;
            } else if (c == '$') {
                int j = i + 1;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || "_{}".indexOf(s.charAt(j)) >= 0)) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_'
                        || s.charAt(j) == ':' && !out.isEmpty() && !"[".equals(out.get(out.size() - 1)))) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else if (Character.isDigit(c) || c == '.') {
                int j = i;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '.'
                        || (s.charAt(j) == '+' || s.charAt(j) == '-') && (s.charAt(j - 1) == 'e' || s.charAt(j - 1) == 'E')
                        && s.substring(i, j).matches("[\\d.]+[eE]"))) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else {
                String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
                if (Set.of("==", "!=", "<=", ">=", "=~", "!~").contains(two)) {
                    out.add(two);
                    i += 2;
                } else if ("+-*/%^<>=,(){}[]:".indexOf(c) >= 0) {
                    out.add(String.valueOf(c));
                    i++;
                } else {
                    throw new IllegalArgumentException("unexpected character '" + c + "' in " + s);
                }
            }
        }
        return out;
    }
}
