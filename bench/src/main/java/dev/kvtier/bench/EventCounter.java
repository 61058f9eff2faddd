package dev.kvtier.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Events a benchmark went through, reported by JMH as a rate (events per second) beside the benchmark's own score. */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class EventCounter {
    public long events;

    @Setup(Level.Iteration)
    public void clear() {
        events = 0;
    }
}
