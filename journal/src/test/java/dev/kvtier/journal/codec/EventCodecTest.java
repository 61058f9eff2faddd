package dev.kvtier.journal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import dev.kvtier.journal.testkit.EventSamples;
import dev.kvtier.journal.testkit.RandomEvents;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class EventCodecTest {
    private final EventCodec codec = new EventCodec();

    @Test
    void shouldHaveASampleForEveryRecordType() {
        final Set<String> sampled = new TreeSet<>();
        for (final CoreEvent event : EventSamples.all()) {
            sampled.add(event.getClass().getSimpleName());
        }
        final Set<String> permitted = new TreeSet<>();
        for (final Class<?> type : RandomEvents.recordTypes()) {
            permitted.add(type.getSimpleName());
        }
        assertEquals(permitted, sampled);
        assertEquals(permitted.size(), EventSamples.all().size(), "one sample per type");
    }

    @Test
    void shouldRoundTripEverySample() throws EventFormatException {
        for (final CoreEvent event : EventSamples.all()) {
            final byte[] bytes = codec.encode(event);
            assertEquals(event, codec.decode(bytes, 0, bytes.length), event.getClass().getSimpleName());
        }
    }

    @Test
    void shouldRoundTripRandomEventsWithEdgeValues() throws EventFormatException {
        final RandomEvents random = new RandomEvents(42);
        for (final Class<?> type : RandomEvents.recordTypes()) {
            for (int i = 0; i < 200; i++) {
                final CoreEvent event = random.of(type);
                final byte[] bytes = codec.encode(event);
                assertEquals(event, codec.decode(bytes, 0, bytes.length));
            }
        }
    }

    /**
     * Decoding a format-4 event (keys by dictionary reference) gives its canonical bytes, those a canonical encoding
     * gives: over every sample and random events, each encoded twice so its keys are written both whole (new) and by
     * number (known).
     */
    @Test
    void shouldGiveTheCanonicalBytesWhileDecodingDictionaryKeys() throws EventFormatException {
        final List<CoreEvent> events = new ArrayList<>(EventSamples.all());
        final RandomEvents random = new RandomEvents(7);
        for (final Class<?> type : RandomEvents.recordTypes()) {
            for (int i = 0; i < 50; i++) {
                events.add(random.of(type));
            }
        }
        final KeyDictionary writerKeys = new KeyDictionary();
        final KeyDictionary readerKeys = new KeyDictionary();
        final EventBuffer written = new EventBuffer(EventLayout.MAX_EVENT_BYTES);
        final EventBuffer canonical = new EventBuffer(EventLayout.MAX_EVENT_BYTES);
        for (int round = 0; round < 2; round++) {
            for (final CoreEvent event : events) {
                written.reset();
                codec.encode(event, written, writerKeys);
                canonical.reset();
                canonical.putLongLe(-1); // bytes already there stay: the event's are appended
                assertEquals(event, codec.decode(written.array(), 0, written.length(), readerKeys, canonical));
                final byte[] want = codec.encode(event);
                assertArrayEquals(want, Arrays.copyOfRange(canonical.array(), Long.BYTES, canonical.length()),
                    event.getClass().getSimpleName() + " in round " + round);
            }
        }
        assertEquals(writerKeys.size(), readerKeys.size());
    }

    @Test
    void shouldGiveEveryRecordADistinctTagInRange() {
        final Set<Integer> tags = new TreeSet<>();
        for (final CoreEvent event : EventSamples.all()) {
            final int tag = codec.encode(event)[0];
            assertTrue(tag >= 1 && tag <= EventLayout.TAG_MAX, "tag " + tag);
            assertTrue(tags.add(tag), "tag " + tag + " used twice");
        }
        assertEquals(EventLayout.TAG_MAX, tags.size(), "every tag up to TAG_MAX is used");
    }

    @Test
    void shouldVisitFieldsInRecordComponentOrder() {
        for (final CoreEvent event : EventSamples.all()) {
            final List<String> visited = new ArrayList<>();
            EventFields.visit(event, new NameRecorder(visited));
            final List<String> expected = new ArrayList<>();
            expected.add(event.getClass().getSimpleName());
            for (final RecordComponent component : event.getClass().getRecordComponents()) {
                expected.add(component.getName());
            }
            assertEquals(expected, visited);
        }
    }

    @Test
    void shouldMatchTheGoldenBytesOfTheDescriptorExample() {
        final PrefixKey key = new PrefixKey(0x0102030405060708L, 0x1112131415161718L);
        final byte[] bytes = codec.encode(new CoreEvent.Allocated(7, key, 300, 12, 1));
        assertEquals("030e" + "0807060504030201" + "1817161514131211" + "d8041802", HexFormat.of().formatHex(bytes));
    }

    @Test
    void shouldRejectEveryTruncation() {
        for (final CoreEvent event : EventSamples.all()) {
            final byte[] bytes = codec.encode(event);
            for (int length = 0; length < bytes.length; length++) {
                final int cut = length;
                assertThrows(EventFormatException.class, () -> codec.decode(bytes, 0, cut),
                    event.getClass().getSimpleName() + " cut to " + cut);
            }
        }
    }

    @Test
    void shouldRejectTrailingBytes() {
        final byte[] bytes = codec.encode(EventSamples.all().get(2));
        final byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(EventFormatException.class, () -> codec.decode(longer, 0, longer.length));
    }

    @Test
    void shouldDecodeAFlippedByteOnlyToItsOwnCanonicalBytes() {
        int rejected = 0;
        for (final CoreEvent event : EventSamples.all()) {
            final byte[] bytes = codec.encode(event);
            for (int i = 0; i < bytes.length; i++) {
                for (final int mask : new int[] {0x01, 0x80, 0xFF}) {
                    final byte[] flipped = bytes.clone();
                    flipped[i] ^= (byte) mask;
                    try {
                        final CoreEvent other = codec.decode(flipped, 0, flipped.length);
                        assertNotEquals(event, other);
                        assertArrayEquals(flipped, codec.encode(other), "decoding accepted a non-canonical form");
                    } catch (final EventFormatException e) {
                        rejected++;
                    }
                }
            }
        }
        assertTrue(rejected > 0, "some flips must be rejected");
    }

    @Test
    void shouldRejectBadTagsAndBadFieldValues() {
        assertThrows(EventFormatException.class, () -> codec.decode(new byte[] {0}, 0, 1));
        assertThrows(EventFormatException.class, () -> codec.decode(new byte[] {(byte) 200}, 0, 1));
        final byte[] skipped = codec.encode(new CoreEvent.AllocationSkipped(1, EventSamples.key(1),
            CoreEvent.SkipReason.CLAIMED));
        skipped[skipped.length - 1] = 77;
        final EventFormatException e = assertThrows(EventFormatException.class,
            () -> codec.decode(skipped, 0, skipped.length));
        assertTrue(e.getMessage().contains("ordinal 77"), e.getMessage());
        final byte[] overlong = {(byte) EventLayout.REQUEST_RELEASED, (byte) 0x82, 0x00};
        assertThrows(EventFormatException.class, () -> codec.decode(overlong, 0, overlong.length));
    }

    @Test
    void shouldRejectANegativeSlotCountInAnAllocationRef() {
        final byte[] bytes = codec.encode(new CoreEvent.ClaimReleased(new AllocationRef(EventSamples.key(3), 9, 4, 1),
            true));
        bytes[bytes.length - 2] = 0x01;
        final EventFormatException e = assertThrows(EventFormatException.class,
            () -> codec.decode(bytes, 0, bytes.length));
        assertTrue(e.getMessage().contains("does not decode"), e.getMessage());
    }

    @Test
    void shouldRejectAnEventLargerThanTheLimit() {
        final List<PrefixKey> keys = new ArrayList<>();
        for (int i = 0; i <= EventLayout.MAX_LIST_COUNT; i++) {
            keys.add(EventSamples.key(i));
        }
        assertThrows(IllegalArgumentException.class, () -> codec.encode(new CoreEvent.Lookup(1, keys, 0)));
    }

    @Test
    void shouldAverageUnder64BytesOnTheSamples() {
        long total = 0;
        for (final CoreEvent event : EventSamples.all()) {
            total += codec.encode(event).length;
        }
        assertTrue(total / EventSamples.all().size() < 64, "average " + total / EventSamples.all().size());
    }

    /** Records the type and field names in visit order. */
    private record NameRecorder(List<String> names) implements FieldVisitor {
        @Override
        public FieldVisitor begin(final int tag, final String type) {
            names.add(type);
            return this;
        }

        @Override
        public FieldVisitor i32(final String name, final int value) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor i64(final String name, final long value) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor bool(final String name, final boolean value) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor enumValue(final String name, final Enum<?> value) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor text(final String name, final String value) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor key(final String name, final PrefixKey value) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor ref(final String name, final AllocationRef value) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor keys(final String name, final List<PrefixKey> values) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor refs(final String name, final List<AllocationRef> values) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor specs(final String name, final List<StoreSpec> values) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor pieces(final String name, final List<SpanPiece> values) {
            names.add(name);
            return this;
        }

        @Override
        public FieldVisitor ranges(final String name, final List<LoadRange> values) {
            names.add(name);
            return this;
        }
    }
}
