package dev.kvtier.journal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seal is written through a temporary renamed into place, and gets the permissions a plain create gives. */
class JournalSealTest {
    @TempDir
    Path dir;

    @Test
    void theSealHasThePermissionsOfAPlainlyCreatedFileAndReadsBack() throws Exception {
        final TreeMap<String, Long> sizes = new TreeMap<>();
        final JournalSeal seal = new JournalSeal(7, sizes);
        seal.write(dir);
        final Path plain = Files.createFile(dir.resolve("plain"));
        assertEquals(permissions(plain), permissions(dir.resolve(SealLayout.FILE_NAME)));
        assertEquals(seal, JournalSeal.read(dir));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.count(), "no temporary is left behind");
        }
    }

    private static String permissions(final Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }
}
