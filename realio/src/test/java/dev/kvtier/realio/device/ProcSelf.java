package dev.kvtier.realio.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Counts this process's open descriptors and io_uring mappings, from /proc/self. */
final class ProcSelf {
    private ProcSelf() {}

    static long openFds() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count() - 1; // the listing's own descriptor
        }
    }

    static long uringMappings() throws IOException {
        try (Stream<String> s = Files.lines(Path.of("/proc/self/maps"))) {
            return s.filter(l -> l.contains("io_uring")).count();
        }
    }
}
