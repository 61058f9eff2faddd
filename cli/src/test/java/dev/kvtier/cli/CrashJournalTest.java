package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A simulated run that crashes and restarts writes a whole journal, and replay checks it up to the crash. */
class CrashJournalTest {

    @Test
    void shouldJournalACrashedRunAndReplayItUpToTheRestart(@TempDir final Path dir) {
        final Path journal = CliRun.record(dir.resolve("j"), "pr90-evict-small", 1, "faults.crashAtEvent=1500",
            "core.commitMode=durable");
        final CliRun replay = CliRun.of("replay", journal.toString());
        assertEquals(ExitCodes.OK, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().contains("identical: 1500 events"), replay.out());
        assertTrue(replay.out().contains("crashed and restarted at event 1500"), replay.out());
    }
}
