package dev.kvtier.sim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link BlockList}'s sharing (copy on write) and {@link BlockPool}: what one map does never shows in another. */
class BlockListTest {

    @Test
    void shouldShareEveryBlockThenCopyOnlyTheOneAMapChanges() {
        final RunBlocks durable = filled(1000, 10);
        final RunBlocks visible = filled(300, 99);
        visible.shareFrom(durable);
        assertEquals(durable.blockCount, visible.blockCount);
        for (int b = 0; b < durable.blockCount; b++) {
            assertSame(durable.blocks[b], visible.blocks[b], "block " + b);
            assertTrue(durable.shared[b] && visible.shared[b]);
        }
        assertEquals(runs(durable), runs(visible));
        final List<List<Long>> before = runs(durable);
        visible.put(4096L * 500, 7, 1234, 0); // replaces run 500, in one block
        final int changed = BlockList.block(visible.floor(4096L * 500));
        assertNotSame(durable.blocks[changed], visible.blocks[changed]);
        assertFalse(visible.shared[changed]);
        assertEquals(before, runs(durable), "the durable image does not see the visible image's write");
        assertEquals(1234, visible.tag(visible.floor(4096L * 500)));
        durable.removeStartsIn(0, 4096L * 900); // drops shared blocks: neither map may reuse them
        assertEquals(1000, visible.size());
        assertEquals(before.subList(0, 500), runs(visible).subList(0, 500));
        assertEquals(before.subList(501, 1000), runs(visible).subList(501, 1000));
        assertEquals(before.subList(900, 1000), runs(durable));
    }

    @Test
    void shouldReuseDroppedBlocksAndNeverSeeWhatTheyHeld() {
        final RunBlocks map = filled(2000, 5);
        final int blocks = map.blockCount;
        map.removeStartsIn(0, Long.MAX_VALUE);
        assertEquals(0, map.size());
        assertEquals(blocks, map.pool.size());
        map.insertAfter(-1, 10, 3, 4, 5);
        assertEquals(List.of(List.of(10L, 3L, 4L, 5L)), runs(map));
        assertEquals(blocks - 1, map.pool.size());
    }

    @Test
    void shouldGiveTwoImagesBlocksToTheReserveOnceEachAndShowNothingOfThemAgain() {
        final RunMap durable = new RunMap();
        final RunMap visible = durable.sibling();
        for (int i = 0; i < 1000; i++) {
            durable.put(4096L * i, 100, 10, i);
        }
        visible.copyAllFrom(durable, Long.MAX_VALUE / 2); // shares all 8 blocks
        visible.put(0, 100, 11, 0); // replaces run 0: copies block 0 on write, 9 distinct blocks in all
        final BlockPool reserve = BlockPool.reserve();
        while (reserve.size() > 0) {
            reserve.take();
        }
        RunMap.recycle(visible, durable);
        assertEquals(9, reserve.size());
        assertEquals(0, visible.runCount());
        assertEquals(0, durable.runCount());
        final RunMap next = new RunMap();
        next.put(10, 3, 4, 5);
        assertEquals(8, reserve.size(), "the next map's block comes from the reserve");
        assertEquals(0, next.tagAt(4096L * 3), "nothing of the recycled maps shows");
        assertEquals(4, next.tagAt(11));
        assertEquals(1, next.runCount());
    }

    @Test
    void shouldKeepAtMostTheBoundOfBlocks() {
        final BlockPool pool = new BlockPool(4);
        final long[] first = new long[4];
        for (int i = 0; i < BlockPool.MAX_BLOCKS + 10; i++) {
            pool.release(i == 0 ? first : new long[4]);
        }
        assertEquals(BlockPool.MAX_BLOCKS, pool.size());
        for (int i = 0; i < BlockPool.MAX_BLOCKS - 1; i++) {
            pool.take();
        }
        assertSame(first, pool.take());
        assertEquals(4, pool.take().length);
    }

    /** {@code n} runs of 100 bytes at 4096-byte strides, tag {@code tag}. */
    private static RunBlocks filled(final int n, final long tag) {
        final RunBlocks map = new RunBlocks();
        for (int i = 0; i < n; i++) {
            map.put(4096L * i, 100, tag, i);
        }
        return map;
    }

    private static List<List<Long>> runs(final RunBlocks map) {
        final List<List<Long>> out = new ArrayList<>();
        for (long c = map.first(); c >= 0; c = map.next(c)) {
            out.add(List.of(map.start(c), map.length(c), map.tag(c), map.pos(c)));
        }
        return out;
    }
}
