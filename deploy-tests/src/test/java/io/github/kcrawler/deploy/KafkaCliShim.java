package io.github.kcrawler.deploy;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One of the Kafka image's {@code /opt/kafka/bin/*.sh} scripts as the tests run it: a shell script that starts one of
 * Kafka's own tool classes from the test class path. The scripts under test start such a tool once per topic, so
 * the shims of one directory share a dynamic CDS archive of the classes they load ({@code kafka-cli.jsa}, written by
 * the first run that finds none, under a name of its own, then moved into place): on this machine a
 * {@code TopicCommand --list} took 1.1 s without it and 0.7 s with it. A missing or unusable archive only costs the
 * time ({@code -Xshare:auto}); JVM log lines go to stderr, so that a tool's stdout, which the scripts parse, stays
 * the tool's. The JVM refuses to write such an archive when a non-empty directory is on the class path, so the shims
 * get the test class path's jars only (Kafka's tools live in jars), and the tests' logging configuration by name.
 */
final class KafkaCliShim {

    static final String ARCHIVE = "kafka-cli.jsa";

    private KafkaCliShim() {
    }

    /** Writes {@code bin/name}, running {@code mainClass} with these JVM flags and the test class path's jars. */
    static Path write(Path bin, String name, String mainClass, List<String> jvmFlags) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path archive = bin.resolve(ARCHIVE);
        List<String> all = new ArrayList<>(jvmFlags);
        URL logging = KafkaCliShim.class.getResource("/logback-test.xml");
        if (logging != null && logging.getProtocol().equals("file")) {
            all.add("-Dlogback.configurationFile=" + Path.of(URI.create(logging.toString())));
        }
        String jars = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.isEmpty() && !Files.isDirectory(Path.of(e)))
                .collect(Collectors.joining(File.pathSeparator));
        StringBuilder flags = new StringBuilder();
        for (String f : all) {
            flags.append(" '").append(f).append('\'');
        }
        String script = "#!/bin/sh\n"
                + "jsa='" + archive + "'\n"
                + "if [ -f \"$jsa\" ]; then\n"
                + "  exec '" + java + "' -Xlog:disable -Xlog:all=warning:stderr -XX:SharedArchiveFile=\"$jsa\""
                + " -Xshare:auto" + flags + " -cp '" + jars + "' " + mainClass
                + " \"$@\"\n"
                + "fi\n"
                + "'" + java + "' -Xlog:disable -Xlog:all=warning:stderr -XX:ArchiveClassesAtExit=\"$jsa.$$\""
                + flags + " -cp '" + jars + "' " + mainClass + " \"$@\"\n"
                + "rc=$?\n"
                + "[ -f \"$jsa.$$\" ] && mv -f \"$jsa.$$\" \"$jsa\"\n"
                + "exit $rc\n";
        Path shim = bin.resolve(name);
        Files.writeString(shim, script);
        Files.setPosixFilePermissions(shim, PosixFilePermissions.fromString("rwxr-xr-x"));
        return shim;
    }
}
