package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A full journal disk (injected with a byte cap): one line, exit 2, and what was written stays readable. */
class JournalFullTest {

    @Test
    void shouldSayTheJournalDiskIsFullAndKeepWhatWasWrittenReadable(@TempDir final Path dir) {
        final Path journal = dir.resolve("j");
        final CliRun r = CliRun.of("run", "pr90-evict-small", "--journal", journal.toString(), "--journal-max-bytes",
            "200000");
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
        assertTrue(r.err().contains("journal disk full after"), r.err());
        assertEquals(1, r.err().strip().lines().filter(l -> l.contains("journal")).count(), "one line: " + r.err());
        final CliRun dump = CliRun.of("journal", "dump", journal.toString(), "--from", "0", "--to", "5");
        assertEquals(ExitCodes.OK, dump.exitCode(), dump.err());
        final CliRun replay = CliRun.of("replay", journal.toString());
        assertEquals(ExitCodes.OK, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().contains("identical"), replay.out());
    }
}
