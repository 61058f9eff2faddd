package dev.kvtier.bench;

import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.sim.run.SimRun;
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

/**
 * One whole virtual run of a bundled scenario with seed 1, every checker and the event digest on (exactly what
 * {@code ./kvtier run SCENARIO} does, without a journal). The {@code events} counter is the throughput to read:
 * core events per second, after warm-up in one JVM.
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

    @Benchmark
    public RunReport run(final Run run, final EventCounter counter) {
        final RunReport report = new SimRun(run.loaded.spec(), run.loaded.sim(), 1, List.of()).run();
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
