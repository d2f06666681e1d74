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

    private final TextIds<String> idByText = new TextIds<>();
    private final IntArrayList freeIds = new IntArrayList();
    private String[] text = new String[16];
    private long[] wheelKey = new long[16];
    private int[] users = new int[16];
    private int used;

    /** The text-to-id table, with its table size readable. */
    private static final class TextIds<K> extends Object2IntOpenHashMap<K> {
        private static final long serialVersionUID = 1L;

        long memoryBytes() {
            return 8L * key.length + 4L * value.length + 2 * 16;
        }
    }

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

    /**
     * Bytes held now: the three arrays ({@code String} reference counted as 8 bytes, {@code long}, {@code int} per
     * id), the text-to-id table ({@code Object[]} and {@code int[]}), the free-id list, and each interned IP's
     * {@code String} at {@code 40 + length} bytes (header, hash, array header, Latin-1 bytes).
     */
    long memoryBytes() {
        long bytes = 20L * text.length + 3 * 16 + idByText.memoryBytes() + 16 + 4L * freeIds.elements().length;
        for (int id = 0; id < used; id++) {
            if (text[id] != null) {
                bytes += stringBytes(text[id]);
            }
        }
        return bytes;
    }

    /** Heap bytes of an IP's {@code String} as counted here (Latin-1: one byte a character; else two). */
    static long stringBytes(String s) {
        return 40L + s.length() * (isLatin1(s) ? 1L : 2L);
    }

    private static boolean isLatin1(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xff) {
                return false;
            }
        }
        return true;
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
