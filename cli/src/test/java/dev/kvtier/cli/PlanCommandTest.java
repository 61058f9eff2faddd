package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.plan.PlanResult;
import dev.kvtier.lab.plan.PlanRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvtier plan}: a grid of sizes over a trace window, whole or in shards merged, and its bad inputs. */
class PlanCommandTest {
    private static final String WINDOW = "workload.traceRequests=150";

    private static CliRun plan(final String... more) {
        final List<String> args = new java.util.ArrayList<>(List.of("plan", "mooncake-conversation-10min", "--l1",
            "8GiB,32GiB", "--l2", "64GiB,256GiB", "--real-model", "qwen3-8b", "--set", WINDOW));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(new String[0]));
    }

    @Test
    void shouldPlanAGridAndGiveTheSameRowsWhenShardedAndMerged(@TempDir final Path dir) throws IOException {
        final CliRun whole = plan("--admission", "all,second-sight", "--out", dir.resolve("whole").toString());
        assertEquals(ExitCodes.OK, whole.exitCode(), whole.err());
        final PlanResult w = PlanResult.read(dir.resolve("whole.json"));
        assertEquals(8, w.rows().size());
        assertTrue(w.idealHitRatio() > 0 && w.idealHitRatio() < 1, "ideal " + w.idealHitRatio());
        for (final PlanRow r : w.rows()) {
            assertTrue(r.ok() && r.hitRatio() <= w.idealHitRatio() + 1e-9, "no cell beats the ideal: " + r);
            assertTrue(r.driveWritesPerDay() > 0 && r.writeMeanBytesPerSec() > 0, r.toString());
        }
        assertTrue(row(w, 32, 256, "all").hitRatio() >= row(w, 8, 64, "all").hitRatio(), "more memory, more hits");
        assertTrue(row(w, 8, 64, "second-sight").driveWritesPerDay() < row(w, 8, 64, "all").driveWritesPerDay(),
            "second sight writes less");
        assertTrue(whole.out().contains("| 8 GiB | 64 GiB | all |"), whole.out());
        for (final String f : List.of("whole.md", "whole-hits.png", "whole-wear.png")) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
        for (int i = 0; i < 3; i++) {
            final CliRun s = plan("--admission", "all,second-sight", "--shard", i + "/3", "--out",
                dir.resolve("s" + i + ".json").toString());
            assertEquals(ExitCodes.OK, s.exitCode(), s.err());
        }
        final CliRun missing = CliRun.of("plan", "merge", dir.resolve("s0.json").toString(),
            dir.resolve("s1.json").toString());
        assertEquals(ExitCodes.BAD_INPUT, missing.exitCode());
        assertTrue(missing.err().contains("the shards hold 6 of the plan's 8 cells"), missing.err());
        final CliRun merged = CliRun.of("plan", "merge", dir.resolve("s0.json").toString(),
            dir.resolve("s1.json").toString(), dir.resolve("s2.json").toString(), "--out",
            dir.resolve("merged").toString());
        assertEquals(ExitCodes.OK, merged.exitCode(), merged.err());
        final PlanResult m = PlanResult.read(dir.resolve("merged.json"));
        assertEquals(w.rows().stream().map(PlanRow::digest).toList(), m.rows().stream().map(PlanRow::digest).toList(),
            "each cell is the same run whichever shard ran it");
    }

    private static PlanRow row(final PlanResult p, final long l1Gib, final long l2Gib, final String admission) {
        return p.rows().stream().filter(r -> r.l1Bytes() == l1Gib << 30 && r.l2Bytes() == l2Gib << 30
            && r.admission().equals(admission)).findFirst().orElseThrow();
    }

    @Test
    void shouldRefuseBadInputWithOneLine(@TempDir final Path dir) {
        for (final String[] bad : List.of(new String[] {"--l1", "12 apples"}, new String[] {"--admission", "twice"},
            new String[] {"--real-model", "gpt-5"}, new String[] {"--shard", "1/2"}, new String[] {"--l2", "0GiB"})) {
            final CliRun r = plan(bad);
            assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), String.join(" ", bad) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
        final CliRun other = CliRun.of("plan", "merge", dir.resolve("none.json").toString());
        assertEquals(ExitCodes.BAD_INPUT, other.exitCode(), other.err());
    }
}
