package io.github.kcrawler.app.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The TCP sockets this JVM is listening on, read from Linux's {@code /proc}: the socket inodes among
 * {@code /proc/self/fd}, matched with the LISTEN entries of {@code /proc/net/tcp} and {@code tcp6}. Other processes'
 * sockets (other builds on the machine) are not counted.
 */
public final class ListeningSockets {
    private static final String LISTEN = "0A";

    /** One listening socket: its local address and port. */
    public record Listener(InetAddress address, int port) {
        @Override
        public String toString() {
            return address.getHostAddress() + ":" + port;
        }
    }

    private ListeningSockets() {
    }

    /** False where {@code /proc} does not describe sockets (not Linux). */
    public static boolean available() {
        return Files.isReadable(Path.of("/proc/net/tcp")) && Files.isDirectory(Path.of("/proc/self/fd"));
    }

    public static List<Listener> ofThisProcess() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // the descriptor closed while listing
                }
            }
        }
        List<Listener> out = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path file = Path.of(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && LISTEN.equals(f[3]) && inodes.contains(f[9])) {
                    String[] local = f[1].split(":");
                    out.add(new Listener(address(local[0]), Integer.parseInt(local[1], 16)));
                }
            }
        }
        return out;
    }

    /** /proc prints each 32-bit word of the address in host (little-endian) byte order. */
    static InetAddress address(String hex) throws UnknownHostException {
        byte[] b = new byte[hex.length() / 2];
        for (int word = 0; word < b.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int at = word * 8 + (3 - i) * 2;
                b[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        return InetAddress.getByAddress(b);
    }
}
