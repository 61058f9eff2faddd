package dev.kvtier.bench;

import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventCodec;
import dev.kvtier.journal.codec.EventLayout;
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
        final EventBuffer all = new EventBuffer(recording.events().size() * (EventLayout.MAX_EVENT_BYTES + 8));
        for (int i = 0; i < recording.events().size(); i++) {
            final byte[] one = codec.encode(recording.events().get(i));
            encoded.add(one);
            all.putLongLe(recording.timesNs()[i]);
            all.putBytes(one, 0, one.length);
        }
        digestInput = all.toByteArray();
        digestInputBytes = all.length();
    }

    int events() {
        return encoded.size();
    }
}
