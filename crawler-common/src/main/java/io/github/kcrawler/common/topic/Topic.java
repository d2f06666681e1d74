package io.github.kcrawler.common.topic;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A topic with its serdes, declared once in {@link Topics}. Every crawler topic is keyed by the host IP as text.
 */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {
    public Consumed<K, V> consumed() {
        return Consumed.with(keySerde, valueSerde);
    }

    public Produced<K, V> produced() {
        return Produced.with(keySerde, valueSerde);
    }
}
