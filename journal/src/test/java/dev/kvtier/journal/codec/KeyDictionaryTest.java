package dev.kvtier.journal.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.geometry.PrefixKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyDictionaryTest {

    @Test
    void shouldNumberKeysInFirstSeenOrderAndReadThemBackThroughItsCacheOfRecentKeys() throws Exception {
        final SplittableRandom random = new SplittableRandom(5);
        final List<PrefixKey> pool = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            pool.add(new PrefixKey(random.nextLong(), i % 7 == 0 ? 0 : random.nextLong()));
        }
        final KeyDictionary writer = new KeyDictionary();
        final KeyDictionary reader = new KeyDictionary();
        final Map<PrefixKey, Integer> model = new HashMap<>();
        final List<PrefixKey> modelOrder = new ArrayList<>();
        final EventBuffer out = new EventBuffer(1 << 16);
        final EventCursor in = new EventCursor().dictionary(reader);
        for (int step = 0; step < 40_000; step++) {
            // Mostly recent keys (a burst), sometimes any key of the pool: the cache both hits and is overwritten.
            final int at = random.nextInt(4) == 0 ? random.nextInt(pool.size()) : (step / 8) % pool.size();
            final PrefixKey key = pool.get(at);
            if (step == 20_000) {
                // An event encoded but not written: its new keys are forgotten, and may come back with new numbers.
                writer.truncate(writer.size() - 3);
                reader.truncate(reader.size() - 3);
                for (int i = 0; i < 3; i++) {
                    model.remove(modelOrder.removeLast());
                }
            }
            out.reset();
            writer.write(key, out);
            final Integer number = model.get(key);
            final long wantRef = number == null ? 0 : number + 1L;
            in.wrap(out.array(), 0, out.length());
            assertEquals(wantRef, in.varLong(), "step " + step);
            if (number == null) {
                model.put(key, modelOrder.size());
                modelOrder.add(key);
            }
            in.wrap(out.array(), 0, out.length());
            assertEquals(key, reader.read(in), "step " + step);
        }
        assertEquals(modelOrder.size(), writer.size());
    }
}
