package dev.kvtier.journal.codec;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 over the run's event stream: for every event in order, its time as 8 bytes little-endian followed by its
 * canonical bytes ({@link EventLayout}). Because the canonical encoding is prefix-free, the concatenation is
 * unambiguous. Two runs with the same digest emitted the same events at the same times.
 *
 * <p>Events are encoded into one reusable staging array, which is fed to SHA-256 when it fills, so adding an event
 * allocates nothing. Not thread-safe; {@link #finish} ends it.
 */
public final class EventDigest {
    private static final int STAGING_BYTES = 64 << 10;

    private final MessageDigest sha256;
    private final EventCodec codec = new EventCodec();
    private final EventBuffer staging = new EventBuffer(STAGING_BYTES + EventLayout.MAX_EVENT_BYTES + Long.BYTES);
    private long eventCount;
    private String finished;

    /** An empty digest. */
    public EventDigest() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** Adds one event at {@code timeNs}. */
    public void add(final long timeNs, final CoreEvent event) {
        checkOpen();
        staging.putLongLe(timeNs);
        codec.encode(event, staging);
        eventCount++;
        flushIfFull();
    }

    /** Adds one event at {@code timeNs} given its canonical bytes (as stored in a journal). */
    public void addEncoded(final long timeNs, final byte[] canonical, final int offset, final int length) {
        checkOpen();
        if (length < 1 || length > EventLayout.MAX_EVENT_BYTES) {
            throw new IllegalArgumentException("canonical event of " + length + " bytes");
        }
        staging.putLongLe(timeNs);
        staging.putBytes(canonical, offset, length);
        eventCount++;
        flushIfFull();
    }

    /** Events added so far. */
    public long eventCount() {
        return eventCount;
    }

    /** Ends the digest and returns it as 64 lower-case hex digits; later calls return the same value. */
    public String finish() {
        if (finished == null) {
            sha256.update(staging.array(), 0, staging.length());
            staging.reset();
            finished = HexFormat.of().formatHex(sha256.digest());
        }
        return finished;
    }

    /** A sink that adds every event at the time {@code clock} reads when it is emitted. */
    public EventSink sink(final Clock clock) {
        return event -> add(clock.nowNs(), event);
    }

    /** The digest of {@code events}, all at {@code timeNs} 0; for tests and tools. */
    public static String of(final Iterable<? extends CoreEvent> events) {
        final EventDigest digest = new EventDigest();
        for (final CoreEvent event : events) {
            digest.add(0, event);
        }
        return digest.finish();
    }

    private void flushIfFull() {
        if (staging.length() >= STAGING_BYTES) {
            sha256.update(staging.array(), 0, staging.length());
            staging.reset();
        }
    }

    private void checkOpen() {
        if (finished != null) {
            throw new IllegalStateException("digest already finished after " + eventCount + " events");
        }
    }
}
