package dev.kvtier.bench;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventCodec;
import dev.kvtier.journal.codec.EventFormatException;
import dev.kvtier.journal.codec.EventLayout;
import dev.kvtier.journal.codec.KeyDictionary;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** The canonical event codec over a recorded run's events: encode each into one reused buffer, decode each. */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class CodecBench {
    private final EventCodec codec = new EventCodec();
    private final EventBuffer buffer = new EventBuffer(EventLayout.MAX_EVENT_BYTES);

    @Benchmark
    public long encode(final StreamState s, final EventCounter counter) {
        long bytes = 0;
        final List<CoreEvent> events = s.recording.events();
        for (final CoreEvent e : events) {
            buffer.reset();
            codec.encode(e, buffer);
            bytes += buffer.length();
        }
        counter.events += events.size();
        return bytes;
    }

    /** As {@code encode}, with the journal's key dictionary (a new one for each pass: every key written whole once). */
    @Benchmark
    public long encodeWithDictionary(final StreamState s, final EventCounter counter) {
        long bytes = 0;
        final KeyDictionary keys = new KeyDictionary();
        final List<CoreEvent> events = s.recording.events();
        for (final CoreEvent e : events) {
            buffer.reset();
            codec.encode(e, buffer, keys);
            bytes += buffer.length();
        }
        counter.events += events.size();
        return bytes;
    }

    @Benchmark
    public long decode(final StreamState s, final EventCounter counter) throws EventFormatException {
        long hash = 0;
        for (final byte[] one : s.encoded) {
            hash += codec.decode(one, 0, one.length).hashCode();
        }
        counter.events += s.events();
        return hash;
    }
}
