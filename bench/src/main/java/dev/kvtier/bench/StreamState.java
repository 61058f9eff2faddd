package dev.kvtier.bench;

import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventCodec;
import dev.kvtier.core.event.CoreEvent;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A recorded run's events (seed 1 of {@code stream}), also as canonical bytes: each event's encoding on its own, and
 * the digest's input (each event's time, 8 bytes little-endian, then its encoding) in one array.
 */
@State(Scope.Benchmark)
public class StreamState {
    @Param({"pr90-evict"})
    public String stream;
    Recording recording;
    /** Each event's canonical encoding. */
    List<byte[]> encoded;
    /** The digest's whole input, and its length. */
    byte[] digestInput;
    int digestInputBytes;

    @Setup(Level.Trial)
    public void record() {
        recording = Recording.of(stream, 1);
        final EventCodec codec = new EventCodec();
        encoded = new ArrayList<>(recording.events().size());
        long bytes = 0;
        for (final CoreEvent e : recording.events()) {
            final byte[] one = codec.encode(e);
            encoded.add(one);
            bytes += Long.BYTES + one.length;
        }
        // Sized by what the stream encodes to (EventLayout.MAX_EVENT_BYTES for every event overflowed an int).
        final EventBuffer all = new EventBuffer(Math.toIntExact(Math.max(bytes, 256)));
        for (int i = 0; i < encoded.size(); i++) {
            all.putLongLe(recording.timesNs()[i]);
            all.putBytes(encoded.get(i), 0, encoded.get(i).length);
        }
        digestInput = all.toByteArray();
        digestInputBytes = all.length();
    }

    int events() {
        return encoded.size();
    }
}
