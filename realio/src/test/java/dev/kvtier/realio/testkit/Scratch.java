package dev.kvtier.realio.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A scratch directory under the module's target/ (an ext4 disk here, unlike a tmpfs /tmp elsewhere). */
public final class Scratch implements AutoCloseable {
    private final Path dir;

    public Scratch() {
        try {
            final Path target = Path.of("target");
            Files.createDirectories(target);
            this.dir = Files.createTempDirectory(target.toAbsolutePath(), "realio-test-");
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path file(final String name) {
        return dir.resolve(name);
    }

    @Override
    public void close() {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
