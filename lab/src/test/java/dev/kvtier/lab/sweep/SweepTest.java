package dev.kvtier.lab.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.results.ResultFolders;
import dev.kvtier.lab.results.ResultInfo;
import dev.kvtier.lab.results.ResultKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mechanism behind the reference's regression, swept: per-slot stores against contiguous ones, on the reference's
 * host model, as the per-span (and per-entry) cost grows. The cold-TTFT ratio is 1 when spans are free and rises with
 * their cost, because each store's span work delays the next engine step's store calls.
 */
class SweepTest {
    private static final String SCENARIO = """
        [scenario]
        name = "%s"
        [model]
        name = "tiny"
        kvHeads = 1
        headDim = 64
        layers = 16
        [workload]
        prompts = 8
        inputTokens = 256
        concurrency = 4
        [engine]
        maxBatchedTokens = 256
        prefillNsPerToken = 40000
        [[phase]]
        name = "cold"
        requests = 8
        [core]
        l1Fraction = 0.9
        l2Fraction = 1.05
        stagingBatchBytes = 1048576
        coalesceStoreSpans = %s
        [sim]
        host = "reference-python"
        """;

    @TempDir
    Path dir;

    @Test
    void shouldRiseMonotonicallyWithThePerSpanCostFromOneAtZero() throws Exception {
        final Path perSlot = perSlotGatedOnContiguous();
        final Sweep.Result r = Sweep.run(perSlot.toString(), "ttft.cold.mean",
            new Sweep.Axis(List.of("host.spanNs", "host.entryNs"),
                List.of(List.of("0", "50000", "100000", "200000", "400000"),
                    List.of("0", "5000", "10000", "20000", "40000"))),
            1, List.of());
        assertEquals(5, r.points().size());
        assertTrue(Math.abs(r.points().getFirst().ratio() - 1.0) <= 0.01, SweepReport.table(r));
        assertTrue(r.monotone(), SweepReport.table(r));
        assertTrue(r.points().getLast().ratio() > 1.2, SweepReport.table(r));
    }

    @Test
    void shouldWriteASweepAsAResultWhenGivenAResultsRoot() throws Exception {
        final Path perSlot = perSlotGatedOnContiguous();
        final Path root = dir.resolve("results");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int code = new SweepJob(new SweepJob.Request(perSlot.toString(), List.of("host.spanNs=0,400000"), null,
            1, List.of(), null, root, "the span cost"), new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err).run();
        assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
        final List<ResultFolders.Result> all = ResultFolders.list(root, ResultKind.SWEEP);
        assertEquals(1, all.size());
        final Path folder = all.getFirst().folder();
        assertTrue(folder.getFileName().toString().matches("\\d{4}-\\d{2}-\\d{2}-\\d{4}-per-slot-.+"),
            folder.toString());
        for (final String f : List.of("sweep.md", "sweep.json", "sweep.png")) {
            assertTrue(Files.size(folder.resolve(f)) > 0, f);
        }
        final ResultInfo info = all.getFirst().info();
        assertEquals(List.of("sweep", "per-slot", "the span cost"), List.of(info.kind(), info.scenario(), info.why()));
        assertEquals("yes", info.headline().get("ratio rises monotonically"), info.headline().toString());
        assertTrue(info.headline().get("metric").endsWith("ttft.cold.mean"), info.headline().toString());
    }

    /** The per-slot scenario, whose [gate] names the contiguous one as its baseline; both written into the temp dir. */
    private Path perSlotGatedOnContiguous() throws IOException {
        final Path base = dir.resolve("contiguous.toml");
        Files.writeString(base, SCENARIO.formatted("contiguous", "true"));
        final Path perSlot = dir.resolve("per-slot.toml");
        Files.writeString(perSlot, SCENARIO.formatted("per-slot", "false") + """
            [gate]
            baseline = "%s"
            metric = "ttft.cold.mean"
            minSlowdown = 0.01
            """.formatted(base));
        return perSlot;
    }
}
