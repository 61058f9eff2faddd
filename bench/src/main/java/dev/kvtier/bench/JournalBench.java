package dev.kvtier.bench;

import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalReader;
import dev.kvtier.journal.file.JournalWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The journal over a recorded run's events at their own times: {@code write} journals the whole stream into a fresh
 * directory and seals it (a run's added cost with {@code --journal}, without the run); {@code read} reads a journal of
 * the stream back, every event decoded and the event digest checked against the end record (replay's cost without
 * its checkers). Files go to a temporary directory that is removed at the end of the trial.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class JournalBench {
    private Path root;
    private Path written;
    private int round;

    @Setup(Level.Trial)
    public void setUp(final StreamState s) throws IOException, JournalException {
        root = Files.createTempDirectory("kvtier-journal-bench");
        written = root.resolve("read");
        writeStream(s, written);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        deleteTree(root);
    }

    @Benchmark
    public long write(final StreamState s, final EventCounter counter) throws IOException, JournalException {
        final Path dir = root.resolve("write-" + round++);
        final long events = writeStream(s, dir);
        deleteTree(dir);
        counter.events += events;
        return events;
    }

    @Benchmark
    public String read(final StreamState s, final EventCounter counter) throws JournalException {
        long events = 0;
        try (JournalReader reader = JournalReader.open(written)) {
            for (JournalEntry e = reader.next(); e != null; e = reader.next()) {
                events++;
            }
            if (events != s.events()) {
                throw new IllegalStateException("read " + events + " events of " + s.events());
            }
            counter.events += events;
            return reader.eventDigest();
        }
    }

    private static long writeStream(final StreamState s, final Path dir) throws JournalException {
        final long[] times = s.recording.timesNs();
        final int[] next = new int[1];
        final JournalHeader header = JournalHeader.of(s.stream, 1, Map.of(), "bench", "bench", JournalHeader.VIRTUAL);
        final JournalWriter writer = new JournalWriter(dir, header, () -> times[next[0]], Long.MAX_VALUE,
            "kvtier JournalBench");
        for (int i = 0; i < s.events(); i++) {
            next[0] = i;
            writer.emit(s.recording.events().get(i));
        }
        writer.close();
        if (writer.failure() != null) {
            throw new IllegalStateException(writer.failure());
        }
        return writer.eventCount();
    }

    static void deleteTree(final Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
