package dev.kvtier.journal.bench;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventCodec;
import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.journal.codec.EventLayout;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalReader;
import dev.kvtier.journal.file.JournalSummary;
import dev.kvtier.journal.file.JournalWriter;
import dev.kvtier.journal.testkit.ManualClock;
import dev.kvtier.journal.testkit.WorkloadMix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A micro-benchmark, not a test: encode+digest, encode+write and read+decode throughput of the {@link WorkloadMix}
 * event mix, and bytes per event. Run with the test classpath: {@code java -cp ... JournalBenchmark [events]}.
 * Wall-clock timing is allowed here: this is a tool, not core or sim code.
 */
public final class JournalBenchmark {
    private static final int ROUNDS = 3;

    private JournalBenchmark() {}

    public static void main(final String[] args) throws Exception {
        final int target = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final ManualClock clock = new ManualClock();
        final WorkloadMix mix = new WorkloadMix(1, clock);
        final List<CoreEvent> events = new ArrayList<>(target + 64);
        final List<Long> times = new ArrayList<>(target + 64);
        for (long r = 0; events.size() < target; r++) {
            mix.request(r, event -> {
                events.add(event);
                times.add(clock.nowNs());
            });
        }
        final long[] timesNs = times.stream().mapToLong(Long::longValue).toArray();
        System.out.printf("events: %,d%n", events.size());
        final EventCodec codec = new EventCodec();
        final EventBuffer buffer = new EventBuffer(EventLayout.MAX_EVENT_BYTES);
        long canonicalBytes = 0;
        for (final CoreEvent event : events) {
            buffer.reset();
            codec.encode(event, buffer);
            canonicalBytes += buffer.length();
        }
        System.out.printf("canonical bytes/event: %.1f%n", (double) canonicalBytes / events.size());
        for (int round = 0; round < ROUNDS; round++) {
            digest(events, timesNs);
            final Path dir = Files.createTempDirectory("kvtier-bench");
            try {
                write(dir, events, timesNs);
                read(dir, events.size());
            } finally {
                delete(dir);
            }
        }
    }

    private static void digest(final List<CoreEvent> events, final long[] timesNs) {
        final long start = System.nanoTime();
        final EventDigest digest = new EventDigest();
        for (int i = 0; i < events.size(); i++) {
            digest.add(timesNs[i], events.get(i));
        }
        digest.finish();
        report("encode+digest", events.size(), System.nanoTime() - start);
    }

    private static void write(final Path dir, final List<CoreEvent> events, final long[] timesNs) throws Exception {
        final int[] next = {0};
        final Path journal = dir.resolve("j");
        final long start = System.nanoTime();
        try (JournalWriter writer = new JournalWriter(journal, JournalHeader.of("bench", 1, Map.of(), "c", "v",
            JournalHeader.VIRTUAL), () -> timesNs[next[0]])) {
            for (int i = 0; i < events.size(); i++) {
                next[0] = i;
                writer.emit(events.get(i));
            }
        }
        report("encode+write (with close)", events.size(), System.nanoTime() - start);
        final long used = usedBytes(journal.resolve("19700101L.cq4"));
        System.out.printf("  queue file: %,d bytes of data and index written, %.1f bytes/event on disk%n", used,
            (double) used / events.size());
    }

    private static void read(final Path dir, final int count) throws Exception {
        final long start = System.nanoTime();
        final JournalSummary summary = JournalReader.verify(dir.resolve("j"));
        report("read+decode+check", count, System.nanoTime() - start);
        if (summary.eventCount() != count) {
            throw new IllegalStateException("read " + summary.eventCount() + " of " + count);
        }
    }

    /** Bytes up to the last non-zero byte (the file is preallocated and sparse). */
    private static long usedBytes(final Path file) throws Exception {
        final byte[] bytes = Files.readAllBytes(file);
        int last = bytes.length - 1;
        while (last >= 0 && bytes[last] == 0) {
            last--;
        }
        return last + 1L;
    }

    private static void report(final String what, final int count, final long elapsedNs) {
        System.out.printf("%-28s %,12.0f events/s  (%,d events in %.3f s)%n", what, count * 1e9 / elapsedNs, count,
            elapsedNs / 1e9);
    }

    private static void delete(final Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (final Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
