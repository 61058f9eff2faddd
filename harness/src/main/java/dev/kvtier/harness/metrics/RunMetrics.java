package dev.kvtier.harness.metrics;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.workload.RequestTiming;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Figures of a run, from its events: bytes stored and loaded, L1 hit ratio, L2 reads and writes, write sizes, and
 * HdrHistograms (3 significant digits) of store acknowledgement time (a batch sent to the server until its grouped
 * store completed) and load time; and, from the workload's account of each request ({@link #request}), per phase:
 * time to first token, queueing, time per output token, end-to-end latency and throughput. Maps keyed by id are point
 * look-ups only.
 */
public final class RunMetrics implements EventSink {
    private final Clock clock;
    private final Histogram storeAck = new Histogram(3);
    private final Histogram load = new Histogram(3);
    private final Map<String, RequestCounters> requests = new LinkedHashMap<>();
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
    private final L2Traffic traffic = new L2Traffic();

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
                traffic.data(e, clock.nowNs());
                if (e.op() == IoOp.READ) {
                    l2Reads++;
                } else if (e.op() == IoOp.WRITE) {
                    l2Writes++;
                    writeBytes += e.lengthBytes();
                }
            }
            case CoreEvent.StepCompleted e -> engine(e.phase()).step(e);
            case CoreEvent.LoadWaited e -> engine(e.phase()).loadWait.recordValue(e.waitNs());
            case CoreEvent.RingEvicted e -> ringEvictions++;
            case CoreEvent.EntryEvicted e -> l1Evictions++;
            case CoreEvent.MemoryWait e -> memoryWaits++;
            case CoreEvent.IndexIoSubmitted e -> traffic.index(e);
            default -> {
                // not measured
            }
        }
    }

    /** A request ended (the workload's account of it): its latencies go to its phase's figures. */
    public void request(final RequestTiming t) {
        requests.computeIfAbsent(t.phase(), k -> new RequestCounters()).add(t);
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

    /** What one phase's requests add up to. */
    private static final class RequestCounters {
        final Histogram ttft = new Histogram(3);
        final Histogram queue = new Histogram(3);
        final Histogram tpot = new Histogram(3);
        final Histogram endToEnd = new Histogram(3);
        long outputTokens;
        long firstArrivalNs = Long.MAX_VALUE;
        long lastEndNs = Long.MIN_VALUE;

        void add(final RequestTiming t) {
            ttft.recordValue(t.ttftNs());
            queue.recordValue(t.queueNs());
            endToEnd.recordValue(t.endToEndNs());
            if (t.tpotNs() >= 0) {
                tpot.recordValue(t.tpotNs());
            }
            outputTokens += t.outputTokens();
            firstArrivalNs = Math.min(firstArrivalNs, t.arrivalNs());
            lastEndNs = Math.max(lastEndNs, t.endNs());
        }

        RequestPhase figures() {
            final double seconds = (lastEndNs - firstArrivalNs) / 1e9;
            final long n = endToEnd.getTotalCount();
            return new RequestPhase(Percentiles.of(queue), Percentiles.of(tpot), Percentiles.of(endToEnd),
                outputTokens, seconds > 0 ? n / seconds : 0, seconds > 0 ? outputTokens / seconds : 0);
        }
    }

    /**
     * One phase's request figures besides TTFT: time in the waiting queue (arrival to first schedule), time per output
     * token after the first (requests of more than one token only), end-to-end latency (arrival to last token), output
     * tokens, and requests and output tokens a second from the phase's first arrival to its last token.
     */
    public record RequestPhase(Percentiles queueNanos, Percentiles tpotNanos, Percentiles endToEndNanos,
                               long outputTokens, double requestsPerSec, double outputTokensPerSec) {}

    /** Request figures per phase, in phase order. */
    public Map<String, RequestPhase> requests() {
        final Map<String, RequestPhase> out = new LinkedHashMap<>();
        requests.forEach((k, c) -> out.put(k, c.figures()));
        return out;
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
     * A latency distribution (ns): how many samples, the 50th, 90th, 95th, 99th and 99.9th percentiles, the maximum,
     * the mean, and its values at {@link #DISTRIBUTION_AT} (for plots). A percentile q rests on enough samples only
     * when there are at least 1 / (1 - q) of them (10 for p90, 100 for p99, 1,000 for p99.9); with fewer it is the
     * maximum or close to it, and {@link #thin} says so.
     */
    public record Percentiles(long count, long p50, long p90, long p95, long p99, long p999, long max, double mean,
                              List<Long> distribution) {
        /** The percentiles a summary shows, by name, with the fraction each stands for. */
        public static final List<Map.Entry<String, Double>> SHOWN = List.of(Map.entry("p50", 0.50),
            Map.entry("p90", 0.90), Map.entry("p95", 0.95), Map.entry("p99", 0.99), Map.entry("p99.9", 0.999));

        public Percentiles {
            distribution = List.copyOf(distribution);
        }

        static Percentiles of(final Histogram h) {
            final List<Long> d = new ArrayList<>(DISTRIBUTION_AT.size());
            for (final double p : DISTRIBUTION_AT) {
                d.add(h.getValueAtPercentile(p));
            }
            return new Percentiles(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                h.getValueAtPercentile(95), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue(),
                h.getTotalCount() == 0 ? 0 : h.getMean(), d);
        }

        /** The value of a percentile of {@link #SHOWN} by its name. */
        public long at(final String name) {
            return switch (name) {
                case "p50" -> p50;
                case "p90" -> p90;
                case "p95" -> p95;
                case "p99" -> p99;
                case "p99.9" -> p999;
                default -> throw new IllegalArgumentException("no percentile " + name);
            };
        }

        /** True when the percentile at fraction {@code q} rests on fewer samples than it needs (1 / (1 - q)). */
        public boolean thin(final double q) {
            return count < Math.round(1 / (1 - q));
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

    /** The bytes asked of the L2 devices, in total and in the busiest minute. */
    public L2Traffic.Figures l2Traffic() {
        return traffic.figures();
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

    /** TTFT (arrival to first token, queueing included) per phase, in phase order. */
    public Map<String, Percentiles> ttft() {
        final Map<String, Percentiles> out = new LinkedHashMap<>();
        requests.forEach((k, c) -> out.put(k, Percentiles.of(c.ttft)));
        return out;
    }
}
