package dev.kvtier.journal.file;

import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.journal.codec.DigestSink;
import dev.kvtier.journal.codec.EventDigest;

/**
 * A run's {@link EventDigest} (XXH3-128), computed on a thread of its own: the run's thread reads each event's time
 * and hands the event over ({@link EventPipe}); the digest's thread encodes and hashes the events in emit order, so
 * the digest is the one an inline {@link EventDigest} gives (events are immutable records). What a composition root
 * of the CLI hands a run so that hashing leaves the run's thread; the simulation itself stays on one thread.
 * {@link #eventCount} and {@link #finish} end the stream: they wait until every event handed over is hashed. A run
 * that ends in a crash calls {@link #abandon}, which ends the thread.
 */
public final class BackgroundDigest implements DigestSink {
    private final EventDigest digest = new EventDigest();
    private final EventPipe pipe = new EventPipe("kvtier event digest", digest::add);

    @Override
    public EventSink sink(final Clock clock) {
        return event -> pipe.put(clock.nowNs(), event);
    }

    @Override
    public long eventCount() {
        pipe.finish();
        return digest.eventCount();
    }

    @Override
    public String finish() {
        pipe.finish();
        return digest.finish();
    }

    @Override
    public void abandon() {
        try {
            pipe.finish();
        } catch (final IllegalStateException e) {
            // given up: what failed on the digest's thread does not matter any more
        }
    }
}
