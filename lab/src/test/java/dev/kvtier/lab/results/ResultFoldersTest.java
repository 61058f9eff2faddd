package dev.kvtier.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result folders: their names, that none is written over, and the look-up of the previous result. */
class ResultFoldersTest {
    @Test
    void shouldNameAFolderByTheUtcMinuteItStartedItsScenarioAndHost() {
        assertEquals("2026-12-03-0833-pr90-evict-small-vm", ResultFolders.name(Instant.parse("2026-12-03T08:33:59Z"),
            "pr90-evict-small", "vm"));
        assertEquals("2026-12-31-2359-fidelity-h.example", ResultFolders.name(Instant.parse("2026-12-31T23:59:00Z"),
            "fidelity", "h.example"), "UTC whatever the machine's zone");
    }

    @Test
    void shouldNeverWriteIntoAFolderThatExists(@TempDir final Path root) throws IOException {
        final Instant at = Instant.parse("2026-12-03T08:33:10Z");
        final Path first = ResultFolders.create(root, ResultKind.SIGNOFF, "s", "h", at);
        Files.writeString(first.resolve("signoff.json"), "{}");
        final Path second = ResultFolders.create(root, ResultKind.SIGNOFF, "s", "h", at.plusSeconds(20));
        final Path third = ResultFolders.create(root, ResultKind.SIGNOFF, "s", "h", at);
        assertEquals(root.resolve("signoffs/2026-12-03-0833-s-h"), first);
        assertEquals(root.resolve("signoffs/2026-12-03-0833-s-h-2"), second);
        assertEquals(root.resolve("signoffs/2026-12-03-0833-s-h-3"), third);
        assertEquals("{}", Files.readString(first.resolve("signoff.json")), "the first result is untouched");
        assertEquals(root.resolve("fidelity/2026-12-03-0833-fidelity-h"), ResultFolders.create(root,
            ResultKind.FIDELITY, "fidelity", "h", at), "each kind in its own folder");
    }

    @Test
    void shouldFindTheNewestEarlierResultOfTheSameKindScenarioAndHost(@TempDir final Path root) throws IOException {
        result(root, ResultKind.SIGNOFF, "s", "h", "2026-12-01T10:00:00Z");
        final Path wanted = result(root, ResultKind.SIGNOFF, "s", "h", "2026-12-02T10:00:00Z");
        result(root, ResultKind.SIGNOFF, "s", "other", "2026-12-02T11:00:00Z");
        result(root, ResultKind.SIGNOFF, "t", "h", "2026-12-02T12:00:00Z");
        result(root, ResultKind.FIDELITY, "s", "h", "2026-12-02T13:00:00Z");
        Files.createDirectories(root.resolve("signoffs/2026-12-02-1400-s-h"));
        final Instant at = Instant.parse("2026-12-03T08:00:00Z");
        final Path current = ResultFolders.create(root, ResultKind.SIGNOFF, "s", "h", at);
        result(root, ResultKind.SIGNOFF, "s", "h", "2026-12-04T10:00:00Z");
        final Optional<ResultFolders.Result> p = ResultFolders.previous(root, ResultKind.SIGNOFF, "s", "h", at,
            current);
        assertEquals(Optional.of(wanted), p.map(ResultFolders.Result::folder),
            "not another host, scenario or kind, not a folder without metadata, not a later result");
        assertTrue(ResultFolders.previous(root, ResultKind.SIGNOFF, "u", "h", at, current).isEmpty());
        assertEquals(List.of("2026-12-01-1000-s-h", "2026-12-02-1000-s-h", "2026-12-02-1100-s-other",
            "2026-12-02-1200-t-h", "2026-12-04-1000-s-h"),
            ResultFolders.list(root, ResultKind.SIGNOFF).stream()
                .map(ResultFolders.Result::name).toList(),
            "oldest first, folders with metadata only");
    }

    @Test
    void shouldOrderResultsOfOneMinuteByTheirFolderNames(@TempDir final Path root) throws IOException {
        final Instant at = Instant.parse("2026-12-03T08:33:00Z");
        final Path first = ResultFolders.create(root, ResultKind.SIGNOFF, "s", "h", at);
        new ResultInfo("signoff", "s", "h", at.toString(), "PASS", Map.of(), null, null, null).write(first);
        final Path second = ResultFolders.create(root, ResultKind.SIGNOFF, "s", "h", at);
        assertEquals(Optional.of(first), ResultFolders.previous(root, ResultKind.SIGNOFF, "s", "h", at, second)
            .map(ResultFolders.Result::folder));
    }

    /** A result of {@code kind} created at {@code created}, in the folder the tool would name. */
    static Path result(final Path root, final ResultKind kind, final String scenario, final String host,
                       final String created) throws IOException {
        final Path folder = ResultFolders.create(root, kind, scenario, host, Instant.parse(created));
        new ResultInfo(kind.id(), scenario, host, created, "PASS", Map.of(), null, null, null).write(folder);
        return folder;
    }
}
