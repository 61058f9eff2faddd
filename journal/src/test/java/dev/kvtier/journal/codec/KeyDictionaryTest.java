package dev.kvtier.journal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyDictionaryTest {
    /**
     * Keys that grow the writer's map many times over, with the bit patterns a map might mistake for an empty place
     * or for one another: zero, all ones, and keys that differ only in one half, some of them numbered in a row.
     */
    private static List<PrefixKey> keys(final int count) {
        final List<PrefixKey> keys = new ArrayList<>();
        keys.add(new PrefixKey(0, 0));
        keys.add(new PrefixKey(-1, -1));
        keys.add(new PrefixKey(0, -1));
        keys.add(new PrefixKey(-1, 0));
        for (int i = 0; i < 64; i++) {
            keys.add(new PrefixKey(9, i)); // numbered in a row, one high half
        }
        final SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < count / 2; i++) {
            keys.add(new PrefixKey(7, i)); // one high half: the low one tells them apart
            keys.add(new PrefixKey(random.nextLong(), random.nextLong()));
        }
        return keys;
    }

    /** What {@link KeyDictionary#write} should write for key number {@code n}: whole when new, else its reference. */
    private static byte[] expected(final PrefixKey key, final int n, final boolean known) {
        final EventBuffer want = new EventBuffer(EventLayout.MAX_EVENT_BYTES);
        if (known) {
            want.putVarLong(n + 1L);
        } else {
            want.putVarLong(0);
            want.putLongLe(key.hi());
            want.putLongLe(key.lo());
        }
        return want.toByteArray();
    }

    private static byte[] written(final KeyDictionary writer, final PrefixKey key) {
        final EventBuffer out = new EventBuffer(EventLayout.MAX_EVENT_BYTES);
        writer.write(key, out);
        return out.toByteArray();
    }

    /**
     * Rounds over every key: new, in number order (each the one after the key written last), shuffled, backwards, and
     * in order again with every other key skipped.
     */
    @Test
    void shouldWriteAKeyWholeTheFirstTimeAndByItsNumberAfter() throws EventFormatException {
        final List<PrefixKey> keys = keys(20_000);
        final List<Integer> inOrder = new ArrayList<>();
        for (int n = 0; n < keys.size(); n++) {
            inOrder.add(n);
        }
        final List<Integer> shuffled = new ArrayList<>(inOrder);
        Collections.shuffle(shuffled, new Random(5));
        final List<Integer> everyOther = inOrder.stream().filter(n -> n % 2 == 0).toList();
        final List<List<Integer>> rounds = List.of(inOrder, inOrder, shuffled, inOrder.reversed(), everyOther);
        final KeyDictionary writer = new KeyDictionary();
        final KeyDictionary reader = new KeyDictionary();
        final EventBuffer stream = new EventBuffer(64 << 20);
        for (int round = 0; round < rounds.size(); round++) {
            for (final int n : rounds.get(round)) {
                final byte[] bytes = written(writer, keys.get(n));
                assertArrayEquals(expected(keys.get(n), n, round > 0), bytes, "key " + n + " in round " + round);
                stream.putBytes(bytes, 0, bytes.length);
            }
            assertEquals(keys.size(), writer.size());
        }
        final EventCursor c = new EventCursor().wrap(stream.array(), 0, stream.length());
        for (final List<Integer> round : rounds) {
            for (final int n : round) {
                assertEquals(keys.get(n), reader.read(c));
            }
        }
        assertEquals(0, c.remaining());
        assertEquals(keys.size(), reader.size());
    }

    @Test
    void shouldNumberTruncatedKeysAgainAndKeepTheOthers() {
        final List<PrefixKey> keys = keys(3_000);
        final KeyDictionary writer = new KeyDictionary();
        for (final PrefixKey key : keys) {
            written(writer, key);
        }
        final int kept = 1_000;
        writer.truncate(kept);
        assertEquals(kept, writer.size());
        writer.truncate(kept + 5); // nothing to forget
        assertEquals(kept, writer.size());
        // A forgotten key is new again, with the next number; a kept one is still known by its number.
        final PrefixKey forgotten = keys.get(2_500);
        assertArrayEquals(expected(forgotten, kept, false), written(writer, forgotten));
        assertArrayEquals(expected(forgotten, kept, true), written(writer, forgotten));
        for (int n = 0; n < kept; n++) {
            assertArrayEquals(expected(keys.get(n), n, true), written(writer, keys.get(n)), "key " + n);
        }
        // The keys after the kept ones, in order: each new again (the one after the key written last is not known).
        int next = kept + 1;
        for (int n = kept; n < keys.size(); n++) {
            if (n != 2_500) {
                assertArrayEquals(expected(keys.get(n), next++, false), written(writer, keys.get(n)), "key " + n);
            }
        }
        assertEquals(keys.size(), writer.size());
    }
}
