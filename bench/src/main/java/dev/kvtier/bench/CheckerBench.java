package dev.kvtier.bench;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.harness.check.InvariantChecker;
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
 * Each invariant checker family (and all of them together) fed a recorded run's whole event stream, as a fresh run
 * feeds it; read the {@code events} rate. The stream is recorded once per fork ({@code stream} with seed 1).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class CheckerBench {
    @Param({"capacity", "structure", "eviction-order", "slice-ownership", "spans", "write-order", "directory",
        "liveness",
        "all"})
    public String family;
    @Param({"pr90-evict"})
    public String stream;
    private Recording recording;
    private int at;

    @Setup(Level.Trial)
    public void record() {
        recording = Recording.of(stream, 1);
    }

    /** One pass over the stream; {@code events} counts its events. */
    @Benchmark
    public long wholeStream(final EventCounter counter) {
        final Recording r = recording;
        final InvariantChecker checker = CheckerFamilies.build(family, r.scenario().spec().core(),
            () -> r.timesNs()[at], () -> r.entries()[at], () -> r.resident()[at],
            r.scenario().spec().livenessBoundNs());
        final List<CoreEvent> events = r.events();
        for (at = 0; at < events.size(); at++) {
            checker.emit(events.get(at));
        }
        at = events.size() - 1;
        checker.atEnd();
        counter.events += events.size();
        return checker.checked();
    }
}
