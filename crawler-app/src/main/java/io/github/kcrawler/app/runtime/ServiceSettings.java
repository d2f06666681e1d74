package io.github.kcrawler.app.runtime;

import io.github.kcrawler.common.config.Settings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settings for the services that run inside one {@code crawler} process. The command line gathers {@code key=value}
 * pairs once; each service receives exactly the keys it declares, so {@code politeness-ms} reaches both the
 * scheduler and the fetcher, and a key that no service knows is refused before anything starts.
 */
public final class ServiceSettings {
    private final Map<String, String> values;

    public ServiceSettings(Map<String, String> values, Collection<Set<String>> knownKeysOfEachService) {
        this.values = Map.copyOf(new LinkedHashMap<>(values));
        Set<String> known = new TreeSet<>();
        knownKeysOfEachService.forEach(known::addAll);
        List<String> unknown = new ArrayList<>();
        for (String key : values.keySet()) {
            if (!known.contains(key) && !key.startsWith(Settings.KAFKA_PREFIX)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown setting(s) " + unknown + "; the services know " + known);
        }
    }

    /** The settings a service with these keys sees (Kafka pass-through keys go to every service). */
    public Settings forService(Set<String> keys) {
        List<String> args = new ArrayList<>();
        values.forEach((k, v) -> {
            if (keys.contains(k) || k.startsWith(Settings.KAFKA_PREFIX)) {
                args.add("--" + k + "=" + v);
            }
        });
        return Settings.parse(keys, Map.of(), args.toArray(String[]::new));
    }

    public Map<String, String> values() {
        return values;
    }
}
