package dev.kvtier.sim.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.Entropy;
import dev.kvtier.harness.entropy.SeededEntropy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A crash's draws and the pieces it persists, against a sector-at-a-time model of the same draws. */
class WriteCacheTest {
    private static final int PAGE = WriteCache.PAGE_BYTES;
    private static final int SECTOR = WriteCache.SECTOR_BYTES;

    /** Records each persisted piece as (content, file offset + from, length); garbles a sector one time in two. */
    private static final class Recorder implements WriteCache.Image<Long> {
        final List<List<Long>> persisted = new ArrayList<>();

        @Override
        public void persist(final Long content, final long fileOffset, final long from, final long lengthBytes) {
            persisted.add(List.of(content, fileOffset + from, lengthBytes));
        }

        @Override
        public void revertToDurable() {
            persisted.add(List.of(-1L));
        }

        @Override
        public boolean garble(final Long content, final long fileOffset, final long from, final long lengthBytes,
                              final Entropy entropy) {
            final boolean garbled = entropy.nextInt(2) == 0;
            persisted.add(List.of(content, fileOffset + from, garbled ? -lengthBytes : 0));
            return garbled;
        }
    }

    @Test
    void shouldPersistTheSamePiecesAsASectorAtATimeForEveryFate() {
        final Random random = new Random(5);
        for (final IndexCrashPages fate : IndexCrashPages.values()) {
            for (int round = 0; round < 40; round++) {
                final Recorder image = new Recorder();
                final WriteCache<Long> cache = new WriteCache<>(true, image);
                final List<long[]> writes = new ArrayList<>();
                for (int w = 0; w < 1 + random.nextInt(6); w++) {
                    final long file = (long) PAGE * random.nextInt(1000);
                    final long length = (long) PAGE * (1 + random.nextInt(round % 5 == 0 ? 300 : 12));
                    final long content = 100L + w;
                    final long seq = cache.submitWrite(file, length, () -> content);
                    if (random.nextBoolean()) {
                        cache.completeWrite(seq, content);
                    }
                    writes.add(new long[] {file, length, content});
                }
                final CrashOutcome outcome = cache.crash(new SeededEntropy(round).child("crash"), fate);
                final Recorder expected = new Recorder();
                final long[] pages = model(writes, new SeededEntropy(round).child("crash"), fate, expected);
                expected.revertToDurable();
                assertEquals(expected.persisted, image.persisted, fate + " round " + round);
                assertEquals(new CrashOutcome(pages[0], pages[1], pages[2], writes.size(), pages[3]), outcome);
                assertTrue(fate == IndexCrashPages.DRAW || pages[2] > 0, "every page torn");
            }
        }
    }

    /**
     * The crash a sector at a time, persisting each piece alone (adjacent written sectors, across pages too, make
     * one piece; a lost page or an unwritten sector ends it); returns written, lost, torn and garbled pages.
     */
    private static long[] model(final List<long[]> writes, final Entropy entropy, final IndexCrashPages fate,
                                final Recorder out) {
        final long[] pages = new long[4];
        for (final long[] w : writes) {
            final List<long[]> pieces = new ArrayList<>();
            for (long page = 0; page < w[1]; page += PAGE) {
                final int draw = fate == IndexCrashPages.DRAW ? entropy.nextInt(3) : 2;
                pages[draw]++;
                int written = draw == 0 ? 0xff : 0;
                if (draw == 2) {
                    final int mask = 1 + entropy.nextInt(254);
                    written = mask;
                    if (fate == IndexCrashPages.GARBLED) {
                        flush(pieces, w, out);
                        final int start = entropy.nextInt(8);
                        int garbled = -1;
                        for (int i = 0; i < 8 && garbled < 0; i++) {
                            final int s = (start + i) % 8;
                            if ((mask & 1 << s) != 0 && out.garble(w[2], w[0], page + (long) s * SECTOR, SECTOR,
                                entropy)) {
                                garbled = s;
                            }
                        }
                        pages[3] += garbled >= 0 ? 1 : 0;
                        written &= garbled >= 0 ? ~(1 << garbled) : -1;
                    }
                }
                for (int s = 0; s < 8; s++) {
                    final long at = page + (long) s * SECTOR;
                    if ((written >>> s & 1) == 0) {
                        pieces.add(null); // ends the open piece
                    } else if (!pieces.isEmpty() && pieces.getLast() != null && pieces.getLast()[1] == at) {
                        pieces.getLast()[1] = at + SECTOR;
                    } else {
                        pieces.add(new long[] {at, at + SECTOR});
                    }
                }
            }
            flush(pieces, w, out);
        }
        return pages;
    }

    private static void flush(final List<long[]> pieces, final long[] w, final Recorder out) {
        for (final long[] p : pieces) {
            if (p != null) {
                out.persist(w[2], w[0], p[0], p[1] - p[0]);
            }
        }
        pieces.clear();
    }
}
