package dev.kvtier.journal.codec;

import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;

/**
 * The event digest a run keeps ({@link EventDigest}): a sink for its events, each stamped by a clock, and the digest
 * once they are all in. {@link EventDigest} hashes each event as it is emitted; {@code BackgroundDigest} (in
 * {@code journal.file}) on a thread of its own, with the same result.
 */
public interface DigestSink {
    /** A sink that adds every event at the time {@code clock} reads when it is emitted. */
    EventSink sink(Clock clock);

    /** Events added (for a digest that works beside the run: all of them, once it has taken them all in). */
    long eventCount();

    /** Ends the digest and returns it in lower-case hex digits; later calls return the same value. */
    String finish();

    /** Gives the digest up (the run ended in a crash, with no report): frees what it holds. Does nothing by default. */
    default void abandon() {}
}
