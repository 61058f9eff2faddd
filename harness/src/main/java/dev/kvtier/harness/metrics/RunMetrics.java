package dev.kvtier.harness.metrics;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Figures of a run, from its events: bytes stored and loaded, L1 hit ratio, L2 reads and writes, write sizes, and
 * HdrHistograms (3 significant digits) of store acknowledgement time (a batch sent to the server until its grouped
 * store completed), load time, and time to first token per phase. Maps keyed by id are point look-ups only.
 */
public final class RunMetrics implements EventSink {
    private final Clock clock;
    private final Histogram storeAck = new Histogram(3);
    private final Histogram load = new Histogram(3);
    private final Map<String, Histogram> ttft = new LinkedHashMap<>();
    private final Map<String, EngineCounters> engine = new LinkedHashMap<>();
    private final Map<Long, Long> storeSentAt = new HashMap<>();
    private final Map<Long, Long> loadAt = new HashMap<>();
    private long storedBytes;
    private long loadedBytes;
    private long hitBytes;
    private long l2Reads;
    private long l2Writes;
    private long writeBytes;
    private long loadFailures;
    private long ringEvictions;
    private long l1Evictions;
    private long memoryWaits;

    public RunMetrics(final Clock clock) {
        this.clock = clock;
    }

    @Override
    public void emit(final CoreEvent event) {
        switch (event) {
            case CoreEvent.StoreSent e -> storeSentAt.put(e.storeId(), clock.nowNs());
            case CoreEvent.StoreCompleted e -> {
                storedBytes += e.bytes();
                final Long at = storeSentAt.remove(e.storeId());
                if (at != null) {
                    storeAck.recordValue(clock.nowNs() - at);
                }
            }
            case CoreEvent.LoadRequested e -> loadAt.put(e.loadId(), clock.nowNs());
            case CoreEvent.LoadCompleted e -> {
                loadedBytes += e.bytes();
                hitBytes += e.hitBytes();
                load.recordValue(clock.nowNs() - loadAt.remove(e.loadId()));
            }
            case CoreEvent.LoadFailed e -> {
                loadFailures++;
                loadAt.remove(e.loadId());
            }
            case CoreEvent.IoSubmitted e -> {
                if (e.op() == IoOp.READ) {
                    l2Reads++;
                } else if (e.op() == IoOp.WRITE) {
                    l2Writes++;
                    writeBytes += e.lengthBytes();
                }
            }
            case CoreEvent.RequestFinished e -> ttft.computeIfAbsent(e.phase(), k -> new Histogram(3))
                .recordValue(e.latencyNs());
            case CoreEvent.StepCompleted e -> engine(e.phase()).step(e);
            case CoreEvent.LoadWaited e -> engine(e.phase()).loadWait.recordValue(e.waitNs());
            case CoreEvent.RingEvicted e -> ringEvictions++;
            case CoreEvent.EntryEvicted e -> l1Evictions++;
            case CoreEvent.MemoryWait e -> memoryWaits++;
            default -> {
                // not measured
            }
        }
    }

    private EngineCounters engine(final String phase) {
        return engine.computeIfAbsent(phase, k -> new EngineCounters());
    }

    /** What one phase's engine steps add up to. */
    private static final class EngineCounters {
        final Histogram steps = new Histogram(3);
        final Histogram loadWait = new Histogram(3);
        long scheduleNs;
        long forwardNs;
        long stagingNs;
        long tokens;

        void step(final CoreEvent.StepCompleted e) {
            steps.recordValue(e.durationNs());
            scheduleNs += e.scheduleNs();
            forwardNs += e.forwardNs();
            stagingNs += e.finishNs();
            tokens += e.tokens();
        }
    }

    /**
     * One phase's engine figures: its step times; the time its steps spent blocked on the store in synchronous
     * calls (lookups and allocations, queued on the server thread) and in staging finished requests (copies into
     * staging and waits for staging room); the GPU's forward time; and how long requests waited for their
     * asynchronous loads.
     */
    public record EnginePhase(Percentiles stepNanos, long scheduleNanos, long stagingNanos, long forwardNanos,
                              long tokens, Percentiles loadWaitNanos) {}

    /** Engine figures per phase, in phase order. */
    public Map<String, EnginePhase> engine() {
        final Map<String, EnginePhase> out = new LinkedHashMap<>();
        engine.forEach((k, c) -> out.put(k, new EnginePhase(Percentiles.of(c.steps), c.scheduleNs, c.stagingNs,
            c.forwardNs, c.tokens, Percentiles.of(c.loadWait))));
        return out;
    }

    /** The percentiles {@link Percentiles#distribution} holds, in order. */
    public static final List<Double> DISTRIBUTION_AT = List.of(10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 100.0);

    /**
     * p50, p99, max and mean of a histogram, in ns, and its values at {@link #DISTRIBUTION_AT} (for plots).
     */
    public record Percentiles(long count, long p50, long p99, long max, double mean, List<Long> distribution) {
        public Percentiles {
            distribution = List.copyOf(distribution);
        }

        static Percentiles of(final Histogram h) {
            final List<Long> d = new ArrayList<>(DISTRIBUTION_AT.size());
            for (final double p : DISTRIBUTION_AT) {
                d.add(h.getValueAtPercentile(p));
            }
            return new Percentiles(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(99),
                h.getMaxValue(), h.getTotalCount() == 0 ? 0 : h.getMean(), d);
        }
    }

    public long storedBytes() {
        return storedBytes;
    }

    public long loadedBytes() {
        return loadedBytes;
    }

    /** Loaded bytes served from L1, over all loaded bytes (0 when nothing was loaded). */
    public double l1HitRatio() {
        return loadedBytes == 0 ? 0 : (double) hitBytes / loadedBytes;
    }

    public long l2Reads() {
        return l2Reads;
    }

    public long l2Writes() {
        return l2Writes;
    }

    public long writeOps() {
        return l2Writes;
    }

    public double meanWriteBytes() {
        return l2Writes == 0 ? 0 : (double) writeBytes / l2Writes;
    }

    public long loadFailures() {
        return loadFailures;
    }

    public long ringEvictions() {
        return ringEvictions;
    }

    public long l1Evictions() {
        return l1Evictions;
    }

    public long memoryWaits() {
        return memoryWaits;
    }

    public Percentiles storeAck() {
        return Percentiles.of(storeAck);
    }

    public Percentiles load() {
        return Percentiles.of(load);
    }

    /** TTFT per phase, in phase order. */
    public Map<String, Percentiles> ttft() {
        final Map<String, Percentiles> out = new LinkedHashMap<>();
        ttft.forEach((k, v) -> out.put(k, Percentiles.of(v)));
        return out;
    }
}
