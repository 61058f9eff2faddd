package dev.kvtier.realio.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An output file is written whole through a temporary, and ends with the permissions a plain create gives. */
class OutputFileTest {
    @TempDir
    Path dir;

    private static Set<PosixFilePermission> permissions(final Path file) throws IOException {
        return Files.getPosixFilePermissions(file);
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aWrittenReportGetsThePermissionsOfAPlainlyCreatedFile() throws IOException {
        final Path plain = Files.createFile(dir.resolve("plain"));
        final Path report = dir.resolve("report.json");
        OutputFile.writeString(report, "{}\n");
        assertEquals(PosixFilePermissions.toString(permissions(plain)),
            PosixFilePermissions.toString(permissions(report)), "the report is not as a plain create would make it");
        final Path trace = dir.resolve("traces/run.perfetto");
        OutputFile.write(trace, file -> Files.write(file, new byte[] {1, 2, 3}));
        assertEquals(permissions(Files.createFile(dir.resolve("traces/plain"))), permissions(trace));
        assertEquals(List.of("plain", "report.json", "traces"), names(), "no temporary is left behind");
    }

    @Test
    void aFailedWriteLeavesTheOldFileAndNoTemporary() throws IOException {
        final Path report = dir.resolve("report.txt");
        OutputFile.writeString(report, "old");
        assertThrows(IOException.class, () -> OutputFile.write(report, file -> {
            throw new IOException("disk full");
        }));
        assertEquals("old", Files.readString(report));
        assertEquals(List.of("report.txt"), names());
    }

    @Test
    void aTakenTemporaryNameIsSkipped() throws IOException {
        final Path first = OutputFile.createTemporary(dir, ".x.");
        final Path second = OutputFile.createTemporary(dir, ".x.");
        assertEquals(2, names().size(), first + " and " + second + " are two files");
        assertEquals(permissions(Files.createFile(dir.resolve("plain"))), permissions(second));
    }
}
