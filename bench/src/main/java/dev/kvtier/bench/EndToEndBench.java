package dev.kvtier.bench;

import dev.kvtier.core.port.Clock;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalWriter;
import dev.kvtier.journal.replay.ConfigDigest;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.sim.run.SimRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One whole virtual run of a bundled scenario with seed 1, every checker and the event digest on (exactly what
 * {@code ./kvtier run SCENARIO} does, without a journal). The {@code events} counter is the throughput to read:
 * core events per second, after warm-up in one JVM. {@code journaled} is the same run with a journal beside it, as
 * {@code ./kvtier run SCENARIO --journal DIR} writes it (the writer on its own thread, sealed at the end): its ratio
 * to {@code run} is the journal's cost to a warmed run. Each journal goes to a fresh temporary directory, removed
 * after the invocation (outside the measured time).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EndToEndBench {
    /** The scenario and its expected digest (a run that diverged would measure something else). */
    @State(Scope.Benchmark)
    public static class Run {
        @Param({"pr90-evict", "pr90-evict-per-slot", "pr90-evict-small", "prefix-sharing-zipf"})
        public String scenario;
        Scenario loaded;
        String digest;

        @Setup(Level.Trial)
        public void load() {
            loaded = Recording.load(scenario);
        }
    }

    /** A fresh directory for each invocation's journal. */
    @State(Scope.Thread)
    public static class JournalDir {
        Path root;
        Path dir;
        private int round;

        @Setup(Level.Trial)
        public void create() throws IOException {
            root = Files.createTempDirectory("kvtier-end-to-end-journal");
        }

        @Setup(Level.Invocation)
        public void next() {
            dir = root.resolve("journal-" + round++);
        }

        @TearDown(Level.Invocation)
        public void remove() throws IOException {
            JournalBench.deleteTree(dir);
        }

        @TearDown(Level.Trial)
        public void removeRoot() throws IOException {
            JournalBench.deleteTree(root);
        }
    }

    @Benchmark
    public RunReport run(final Run run, final EventCounter counter) {
        return checked(run, counter, new SimRun(run.loaded.spec(), run.loaded.sim(), 1, List.of()).run());
    }

    @Benchmark
    public RunReport journaled(final Run run, final JournalDir journal,
                               final EventCounter counter) throws JournalException {
        final Scenario sc = run.loaded;
        final JournalHeader header = JournalHeader.of(sc.text(), 1, sc.knobs(), ConfigDigest.of(sc.knobs()), "bench",
            JournalHeader.VIRTUAL);
        final Clock[] clock = new Clock[1];
        final JournalWriter writer = new JournalWriter(journal.dir, header, () -> clock[0].nowNs(), Long.MAX_VALUE,
            "kvtier EndToEndBench");
        final SimRun sim = new SimRun(sc.spec(), sc.sim(), 1, List.of(writer));
        clock[0] = sim.serverClock();
        final RunReport report;
        try {
            report = sim.run();
        } finally {
            writer.close();
        }
        if (writer.failure() != null || writer.eventCount() != report.events()) {
            throw new IllegalStateException(run.scenario + ": journal of " + writer.eventCount() + " events, "
                + writer.failure());
        }
        return checked(run, counter, report);
    }

    private static RunReport checked(final Run run, final EventCounter counter, final RunReport report) {
        if (report.violation() != null) {
            throw new IllegalStateException(run.scenario + ": " + report.violation());
        }
        if (run.digest == null) {
            run.digest = report.eventDigest();
        } else if (!run.digest.equals(report.eventDigest())) {
            throw new IllegalStateException(run.scenario + ": digest changed between runs of one JVM");
        }
        counter.events += report.events();
        return report;
    }
}
