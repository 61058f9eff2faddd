package dev.kvtier.cli;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Temporary directories under {@code target/tmp} rather than {@code java.io.tmpdir}: real-I/O tests need O_DIRECT,
 * which a tmpfs {@code /tmp} refuses. Use as {@code @TempDir(factory = TargetTempDir.class)}.
 */
public final class TargetTempDir implements TempDirFactory {
    @Override
    public Path createTempDirectory(final AnnotatedElementContext element,
                                    final ExtensionContext extension) throws IOException {
        final Path parent = Path.of("target", "tmp").toAbsolutePath();
        Files.createDirectories(parent);
        return Files.createTempDirectory(parent, extension.getTestMethod().map(Method::getName).orElse("kvtier") + "-");
    }
}
