package dev.kvtier.lab.signoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.kvtier.lab.results.ResultFolders;
import dev.kvtier.lab.results.ResultInfo;
import dev.kvtier.lab.results.ResultKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sign-off's comparison with the previous result, found over the results root's {@code signoffs/} folders. */
class PreviousResultTest {
    @Test
    void shouldCompareWithTheNewestEarlierSignoffOfTheSameScenarioAndHost(@TempDir final Path root) throws IOException {
        signoff(root, "s", "h", "2026-01-01T10:00:00Z", 100);
        signoff(root, "s", "h", "2026-02-01T10:00:00Z", 200);
        signoff(root, "s", "other", "2026-03-01T10:00:00Z", 999);
        final Instant at = Instant.parse("2026-04-01T10:00:00Z");
        final Path current = ResultFolders.create(root, ResultKind.SIGNOFF, "s", "h", at);
        Files.writeString(current.resolve(Results.JSON), "{\"storeBytesPerSec\": 1.0}");
        final SignoffReport.Previous p = Results.previous(root, "s", "h", at, current, 150);
        assertEquals("2026-02-01-1000-s-h", p.result());
        assertEquals(200, p.storeBytesPerSec(), 0);
        assertEquals(-0.25, p.change(), 1e-9);
        assertNull(Results.previous(root, "t", "h", at, current, 1));
        assertNull(Results.previous(root.resolve("absent"), "s", "h", at, current, 1), "no results root yet");
    }

    private static void signoff(final Path root, final String scenario, final String host, final String created,
                                final double storeBytesPerSec) throws IOException {
        final Path folder = ResultFolders.create(root, ResultKind.SIGNOFF, scenario, host, Instant.parse(created));
        Files.writeString(folder.resolve(Results.JSON), "{\"storeBytesPerSec\": " + storeBytesPerSec + "}");
        new ResultInfo("signoff", scenario, host, created, "PASS", Map.of(), null, null, null).write(folder);
    }
}
