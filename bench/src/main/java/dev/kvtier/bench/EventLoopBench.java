package dev.kvtier.bench;

import dev.kvtier.sim.loop.EventLoop;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The virtual-time loop's dispatch: schedule and run {@value #TASKS} tasks, a quarter of them at once and the rest at
 * scattered future times with a few hundred pending, as a run's device completions and timers are. Per task.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class EventLoopBench {
    static final int TASKS = 100_000;

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public long scheduleAndRun() {
        final EventLoop loop = new EventLoop(Long.MAX_VALUE);
        final long[] state = {0x9E3779B97F4A7C15L, 0};
        final Runnable[] task = new Runnable[1];
        task[0] = () -> {
            state[1]++;
            if (state[1] + loop.pending() < TASKS) {
                state[0] = state[0] * 6364136223846793005L + 1442695040888963407L;
                final long delayNs = (state[0] >>> 33) % 4 == 0 ? 0 : (state[0] >>> 40) % 1_000_000;
                loop.at(loop.nowNs() + delayNs, task[0]);
                if (loop.pending() < 256) {
                    loop.at(loop.nowNs() + (state[0] >>> 50), task[0]);
                }
            }
        };
        loop.at(0, task[0]);
        loop.run();
        return loop.executed() + state[1];
    }
}
