package dev.kvtier.journal.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hashing;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.testkit.EventSamples;
import dev.kvtier.journal.testkit.RandomEvents;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventDigestTest {

    @Test
    void shouldGiveTheSameDigestForTheSameEvents() {
        assertEquals(EventDigest.of(EventSamples.all()), EventDigest.of(EventSamples.all()));
        assertEquals(32, EventDigest.of(EventSamples.all()).length());
    }

    @Test
    void shouldChangeWhenOneFieldChanges() {
        final List<CoreEvent> changed = new ArrayList<>(EventSamples.all());
        changed.set(2, new CoreEvent.Allocated(7, EventSamples.key(1), 300, 12, 2));
        final List<CoreEvent> original = new ArrayList<>(EventSamples.all());
        original.set(2, new CoreEvent.Allocated(7, EventSamples.key(1), 300, 12, 1));
        assertNotEquals(EventDigest.of(original), EventDigest.of(changed));
    }

    @Test
    void shouldChangeWhenATimeOrTheOrderChanges() {
        final EventDigest a = new EventDigest();
        final EventDigest b = new EventDigest();
        final EventDigest c = new EventDigest();
        final CoreEvent one = new CoreEvent.RequestReleased(1);
        final CoreEvent two = new CoreEvent.RequestReleased(2);
        a.add(10, one);
        a.add(20, two);
        b.add(10, one);
        b.add(21, two);
        c.add(10, two);
        c.add(20, one);
        assertNotEquals(a.finish(), b.finish());
        assertNotEquals(a.finish(), c.finish());
    }

    @Test
    void shouldMatchTheGoldenDigestOfAFixedStream() {
        assertEquals(GOLDEN_XXH3, fixedStream(new EventDigest()),
            "the canonical encoding changed: bump the journal format version");
        assertEquals(GOLDEN_SHA256, fixedStream(new EventDigest(EventDigest.Algorithm.SHA_256)),
            "the digest of journals of format 4 and older changed: they would no longer read");
    }

    @Test
    void shouldBeTheXxh3OfTheTimesAndCanonicalBytesInOrderAsOneHashOfTheWhole() {
        final RandomEvents random = new RandomEvents(11);
        final EventCodec codec = new EventCodec();
        final EventDigest digest = new EventDigest();
        final ByteArrayOutputStream whole = new ByteArrayOutputStream();
        for (int i = 0; i < 5_000; i++) {
            final CoreEvent event = random.any();
            digest.add(i * 7L, event);
            whole.writeBytes(ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(i * 7L).array());
            whole.writeBytes(codec.encode(event));
        }
        assertTrue(whole.size() > 64 << 10, "past one staging flush: " + whole.size());
        final HashValue128 h = Hashing.xxh3_128().hashBytesTo128Bits(whole.toByteArray());
        assertEquals(String.format("%016x%016x", h.getMostSignificantBits(), h.getLeastSignificantBits()),
            digest.finish());
    }

    @Test
    void shouldGiveTheReferenceXxh3OfNoBytesForNoEvents() {
        // XXH3_128 of the empty input (seed 0) in xxHash's canonical form, high 64 bits first (xxHash's test vectors).
        assertEquals("99aa06d3014798d86001c324468d497f", new EventDigest().finish());
    }

    private static String fixedStream(final EventDigest digest) {
        digest.add(0, new CoreEvent.PhaseStarted("cold"));
        digest.add(1_000, new CoreEvent.Allocated(7, EventSamples.key(1), 300, 12, 1));
        digest.add(2_500, new CoreEvent.IoCompleted(3, dev.kvtier.core.value.IoOp.WRITE, 4096, -5));
        return digest.finish();
    }

    @Test
    void shouldAgreeBetweenEncodedAndDecodedInputAcrossStagingFlushes() {
        final RandomEvents random = new RandomEvents(7);
        final EventCodec codec = new EventCodec();
        final EventDigest fromEvents = new EventDigest();
        final EventDigest fromBytes = new EventDigest();
        for (int i = 0; i < 20_000; i++) {
            final CoreEvent event = random.any();
            fromEvents.add(i * 3L, event);
            final byte[] bytes = codec.encode(event);
            fromBytes.addEncoded(i * 3L, bytes, 0, bytes.length);
        }
        assertEquals(20_000, fromEvents.eventCount());
        assertEquals(fromEvents.finish(), fromBytes.finish());
    }

    @Test
    void shouldRefuseEventsAfterFinish() {
        final EventDigest digest = new EventDigest();
        digest.add(1, new CoreEvent.DrainRequested());
        final String first = digest.finish();
        assertEquals(first, digest.finish());
        assertThrows(IllegalStateException.class, () -> digest.add(2, new CoreEvent.DrainRequested()));
        assertTrue(first.matches("[0-9a-f]{32}"));
    }

    /** Computed independently (a Python script over the layout of EventLayout) and pinned. */
    private static final String GOLDEN_SHA256 = "c585e8bbc665878cfb8d1f5d5669224d4b26f1803b6aeab471cfd31d444f92de";
    /** The same stream's XXH3-128, pinned from hash4j's stream (the test above checks it against its one-shot hash). */
    private static final String GOLDEN_XXH3 = "0908327cab9dc9029b966c3f0d1bae85";
}
