package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalReader;
import dev.kvtier.lab.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real run keeps the order of what one task of its loop schedules for "now", as virtual time does: when the client
 * stages a request's last batch, the step's output (the first token) is scheduled, then the client sends an earlier
 * batch to the server, and the output runs first. (With the engine on the live wall clock, the output was stamped
 * after the staging copy and ran behind that store, so the first token waited for the server's work.)
 */
class RealStepOrderTest {
    @TempDir(factory = TargetTempDir.class)
    Path dir;

    @Test
    void shouldGiveTheFirstTokenBeforeTheServerHandlesABatchSentWithTheRelease() throws Exception {
        final Path scenario = dir.resolve("order.toml");
        // 16 slots a prompt in batches of 4, a staging pool of two batches: each ack stages one batch and sends one,
        // so a request's release comes with a batch sent in the same task.
        Files.writeString(scenario, TinyScenario.text("order", ""));
        final Path journal = dir.resolve("journal");
        assertEquals(ExitCodes.OK, Main.execute("run", scenario.toString(), "--mode", "real", "--device",
            dir.resolve("l2.bin").toString(), "--set", "core.stagingPoolBytes=524288", "--journal",
            journal.toString()));
        int checked = 0;
        try (JournalReader reader = JournalReader.open(journal)) {
            // Since the latest release: the stores the client sent, and those of them the server handled. A step's
            // output follows its last release; a store sent with that release and handled before the output is the
            // inversion (one handled after an earlier request's release is not: the step still waits for staging).
            final Set<Long> sent = new HashSet<>();
            final Set<Long> handled = new HashSet<>();
            final boolean[] released = {false};
            for (JournalEntry e = reader.next(); e != null; e = reader.next()) {
                switch (e.event()) {
                    case CoreEvent.RequestReleased r -> {
                        released[0] = true;
                        sent.clear();
                        handled.clear();
                    }
                    case CoreEvent.BatchSent b when released[0] -> sent.add(b.storeId());
                    case CoreEvent.StoreReceived s when sent.contains(s.storeId()) -> handled.add(s.storeId());
                    case CoreEvent.StepCompleted c -> {
                        assertTrue(handled.isEmpty(), "stores " + handled + ", sent with the step's last release,"
                            + " were handled before its output (step " + c.step() + ", event " + e.sequence() + ")");
                        checked += sent.isEmpty() ? 0 : 1;
                        released[0] = false;
                        sent.clear();
                    }
                    default -> {
                    }
                }
            }
        }
        assertTrue(checked > 0, "no step ended with a batch sent after its last release: the case was not reached");
    }
}
