package io.github.kcrawler.common.config;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The settings one service (or one group of a service's settings) declares, in the order {@code --help} and
 * docs/CONFIGURATION.md list them. A set is built from single {@link Setting}s and other sets (the Kafka keys every
 * service shares, the crawl scope ...); a key declared twice is a programming error refused when the class loads.
 * Everything a service says about its settings — the keys {@link Settings#parse} accepts, the defaults, the help —
 * is derived from its set.
 */
public final class SettingSet implements Iterable<Setting<?>> {
    private final Map<String, Setting<?>> byKey;

    private SettingSet(Map<String, Setting<?>> byKey) {
        this.byKey = Collections.unmodifiableMap(byKey);
    }

    /** @param parts {@link Setting}s and {@link SettingSet}s, in order; every key at most once */
    public static SettingSet of(Object... parts) {
        Map<String, Setting<?>> all = new LinkedHashMap<>();
        for (Object p : parts) {
            if (p instanceof Setting<?> s) {
                add(all, s);
            } else if (p instanceof SettingSet set) {
                set.forEach(s -> add(all, s));
            } else {
                throw new IllegalArgumentException("not a setting: " + p);
            }
        }
        return new SettingSet(all);
    }

    private static void add(Map<String, Setting<?>> all, Setting<?> s) {
        if (all.putIfAbsent(s.key(), s) != null) {
            throw new IllegalStateException("setting " + s.key() + " is declared twice");
        }
    }

    /** Every key, in declaration order. */
    public Set<String> keys() {
        return byKey.keySet();
    }

    public List<Setting<?>> settings() {
        return List.copyOf(byKey.values());
    }

    /** The declaration of {@code key}, or null. */
    public Setting<?> setting(String key) {
        return byKey.get(key);
    }

    /** Key → default as help shows it (a formula for a derived default; "" for none), in declaration order. */
    public Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        byKey.values().forEach(s -> d.put(s.key(), s.defaultText()));
        return Collections.unmodifiableMap(d);
    }

    /** {@link Settings#parse} with exactly these keys. */
    public Settings parse(Map<String, String> env, String... args) {
        return Settings.parse(keys(), env, args);
    }

    @Override
    public Iterator<Setting<?>> iterator() {
        return byKey.values().iterator();
    }

    /**
     * The {@code --help} text: {@code header}, then per key the flag with its type, the default and the environment
     * variable, and on the next line the description and the rule; then the settings every service takes besides
     * its own (Kafka client pass-through, log level and format).
     */
    public String help(String header) {
        StringBuilder sb = new StringBuilder(header);
        if (!header.endsWith("\n")) {
            sb.append('\n');
        }
        sb.append("Settings (--key value, --key=value, or the environment variable; a flag wins over the environment):\n");
        for (Setting<?> s : byKey.values()) {
            String type = s.type().contains("|") ? s.type() : s.type().toUpperCase(Locale.ROOT); // choices as typed
            String flag = "--" + s.key() + " " + type;
            String def = s.defaultText().isEmpty() ? "(empty)" : s.defaultText();
            sb.append(String.format(Locale.ROOT, "  %-34s default: %-28s %s%n", flag, def, s.env()));
            sb.append("      ").append(s.description());
            if (!s.rule().isEmpty()) {
                sb.append(" (").append(s.rule()).append(')');
            }
            sb.append('\n');
        }
        sb.append(Settings.KAFKA_HELP).append('\n')
                .append(Settings.LOG_LEVEL_HELP).append('\n')
                .append(Settings.LOG_FORMAT_HELP).append('\n');
        return sb.toString();
    }
}
