package io.github.kcrawler.scheduler.politeness;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;

import java.util.Arrays;

/**
 * The IPs with pending URLs in one {@link WheelFrontier}, interned: each IP's text and wheel key
 * ({@link WheelFrontier#ipKey}, parsed once) are kept once, under a small id, with the number of pending URLs that
 * use it; the id is freed with the IP's last URL. So a pending URL stores a 4-byte id, not its IP's text (Kafka's
 * key deserializer makes a new {@code String} per record), and the table's size is the number of active IPs.
 * Not thread-safe.
 */
final class IpTable {
    private static final int NONE = -1;

    private final Object2IntOpenHashMap<String> idByText = new Object2IntOpenHashMap<>();
    private final IntArrayList freeIds = new IntArrayList();
    private String[] text = new String[16];
    private long[] wheelKey = new long[16];
    private int[] users = new int[16];
    private int used;

    IpTable() {
        idByText.defaultReturnValue(NONE);
    }

    /** The IP's id, with one more user; interned if new. */
    int acquire(String ip) {
        int id = idByText.getInt(ip);
        if (id == NONE) {
            id = freeIds.isEmpty() ? newId() : freeIds.popInt();
            text[id] = ip;
            wheelKey[id] = WheelFrontier.ipKey(ip);
            users[id] = 0;
            idByText.put(ip, id);
        }
        users[id]++;
        return id;
    }

    /** One user fewer; the last one frees the id. */
    void release(int id) {
        if (--users[id] == 0) {
            idByText.removeInt(text[id]);
            text[id] = null;
            freeIds.add(id);
        }
    }

    String text(int id) {
        return text[id];
    }

    long wheelKey(int id) {
        return wheelKey[id];
    }

    /** IPs with at least one user. */
    int size() {
        return idByText.size();
    }

    private int newId() {
        if (used == text.length) {
            int n = 2 * used;
            text = Arrays.copyOf(text, n);
            wheelKey = Arrays.copyOf(wheelKey, n);
            users = Arrays.copyOf(users, n);
        }
        return used++;
    }
}
