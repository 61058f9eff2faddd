package dev.kvtier.sim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RunMap} (over {@link RunBlocks}) against the sorted-map implementation it replaced ({@link TreeRunMap}): the
 * same operations give the same runs, pieces, mismatches, tags and content hashes, through block splits and removals.
 */
class RunMapTest {
    private static final long SPACE_BYTES = 1 << 20;

    @Test
    void shouldMatchTheSortedMapModelOverRandomOperations() {
        for (long seed = 1; seed <= 6; seed++) {
            final Random random = new Random(seed);
            final RunMap map = new RunMap();
            final TreeRunMap model = new TreeRunMap();
            final RunMap other = new RunMap();
            final TreeRunMap otherModel = new TreeRunMap();
            for (int step = 0; step < 20_000; step++) {
                final long from = random.nextLong(SPACE_BYTES);
                final long length = random.nextInt(8) == 0 ? random.nextLong(SPACE_BYTES / 8) : random.nextLong(512);
                final long tag = 1L + random.nextInt(50);
                switch (random.nextInt(6)) {
                    case 0, 1 -> {
                        map.put(from, length, tag, from / 3);
                        model.put(from, length, tag, from / 3);
                    }
                    case 2 -> {
                        map.clear(from, from + length);
                        model.clear(from, from + length);
                    }
                    case 3 -> {
                        final long to = random.nextLong(SPACE_BYTES);
                        map.copyFrom(map, from, to, length);
                        model.copyFrom(model, from, to, length);
                    }
                    case 4 -> {
                        other.put(from % 4096, length, tag, 7);
                        otherModel.put(from % 4096, length, tag, 7);
                        map.copyFrom(other, 0, from, 4096 + length);
                        model.copyFrom(otherModel, 0, from, 4096 + length);
                    }
                    default -> {
                        assertEquals(model.firstMismatch(from, length, tag), map.firstMismatch(from, length, tag));
                        assertEquals(model.tagAt(from), map.tagAt(from));
                        assertEquals(model.contentHash(from, length), map.contentHash(from, length));
                    }
                }
                if (step % 997 == 0) {
                    assertEquals(pieces(model, 0, SPACE_BYTES * 2), pieces(map, 0, SPACE_BYTES * 2), "seed " + seed);
                }
            }
            assertEquals(model.runCount(), map.runCount(), "seed " + seed);
            assertEquals(pieces(model, 0, SPACE_BYTES * 2), pieces(map, 0, SPACE_BYTES * 2), "seed " + seed);
            assertEquals(pieces(model, 1000, 90_000), pieces(map, 1000, 90_000), "seed " + seed);
        }
    }

    @Test
    void shouldMatchTheModelWhenPutsRewriteWholeRunsOrFillGaps() {
        // Stamps on a grid: most puts rewrite exactly one run or land where no run is (put's one-search paths);
        // some straddle runs or split one, and clears leave gaps, so every path of put is taken.
        final Random random = new Random(11);
        final RunMap map = new RunMap();
        final TreeRunMap model = new TreeRunMap();
        for (int step = 0; step < 20_000; step++) {
            final long from = 4096L * random.nextInt(3_000) + (random.nextInt(10) == 0 ? 512 : 0);
            final long length = 4096L * (1 + random.nextInt(random.nextInt(5) == 0 ? 3 : 1));
            final long tag = 1L + random.nextInt(50);
            if (random.nextInt(8) == 0) {
                map.clear(from, from + length);
                model.clear(from, from + length);
            } else {
                map.put(from, length, tag, step);
                model.put(from, length, tag, step);
            }
            if (step % 499 == 0) {
                assertEquals(model.runCount(), map.runCount(), "step " + step);
                assertEquals(pieces(model, 0, 4096L * 3_010), pieces(map, 0, 4096L * 3_010), "step " + step);
            }
        }
        assertEquals(model.runCount(), map.runCount());
        assertEquals(pieces(model, 0, 4096L * 3_010), pieces(map, 0, 4096L * 3_010));
        assertEquals(model.contentHash(4096, 4096L * 2_000), map.contentHash(4096, 4096L * 2_000));
    }

    @Test
    void shouldCopyAWholeMapAsCopyFromDoes() {
        final Random random = new Random(11);
        for (int round = 0; round < 20; round++) {
            final RunMap src = new RunMap();
            final RunMap viaCopyFrom = new RunMap();
            final RunMap viaCopyAll = new RunMap();
            for (int i = 0; i < 2_000; i++) {
                final long at = random.nextLong(SPACE_BYTES - 1024);
                final long length = random.nextInt(20) == 0 ? 0 : 1 + random.nextLong(1024);
                src.put(at, length, 1 + random.nextInt(9), at);
                viaCopyFrom.put(random.nextLong(SPACE_BYTES - 1024), 1 + random.nextLong(1024), 77, 0);
            }
            viaCopyAll.copyFrom(viaCopyFrom, 0, 0, SPACE_BYTES);
            final long limit = round % 5 == 0 ? SPACE_BYTES / 2 : SPACE_BYTES;
            viaCopyFrom.copyFrom(src, 0, 0, limit);
            viaCopyAll.copyAllFrom(src, limit);
            assertEquals(viaCopyFrom.runCount(), viaCopyAll.runCount());
            assertEquals(pieces(viaCopyFrom, 0, Long.MAX_VALUE), pieces(viaCopyAll, 0, Long.MAX_VALUE));
        }
    }

    @Test
    void shouldKeepTwoImagesApartAfterACopyOfTheWholeMapSharesTheirBlocks() {
        // A device's visible and durable images: writes and torn persists on either, reverts of one to the other.
        for (long seed = 1; seed <= 4; seed++) {
            final Random random = new Random(seed);
            final RunMap visible = new RunMap();
            final RunMap[] maps = {visible, seed % 2 == 0 ? visible.sibling() : new RunMap()}; // a pool shared or not
            final TreeRunMap[] models = {new TreeRunMap(), new TreeRunMap()};
            final RunMap content = new RunMap();
            final TreeRunMap contentModel = new TreeRunMap();
            for (int i = 0; i < 30; i++) {
                final long at = random.nextLong(64 * 1024);
                final long length = 1 + random.nextLong(4096);
                content.put(at, length, 1 + i, at);
                contentModel.put(at, length, 1 + i, at);
            }
            for (int step = 0; step < 6_000; step++) {
                final int m = random.nextInt(2);
                final long from = random.nextLong(SPACE_BYTES - 70_000);
                switch (random.nextInt(8)) {
                    case 0, 1 -> {
                        final long length = 1 + random.nextLong(random.nextBoolean() ? 512 : 40_000);
                        final long tag = 1L + random.nextInt(40);
                        maps[m].put(from, length, tag, from);
                        models[m].put(from, length, tag, from);
                    }
                    case 2 -> {
                        final long length = random.nextLong(60_000);
                        maps[m].clear(from, from + length);
                        models[m].clear(from, from + length);
                    }
                    case 3, 4 -> {
                        final long[] pieces = tornPieces(random);
                        maps[m].copyPieces(content, 0, from, pieces, pieces.length / 2);
                        for (int k = 0; k < pieces.length; k += 2) {
                            models[m].copyFrom(contentModel, pieces[k], from + pieces[k], pieces[k + 1]);
                        }
                    }
                    case 5 -> {
                        maps[m].copyAllFrom(maps[1 - m], SPACE_BYTES);
                        models[m].copyFrom(models[1 - m], 0, 0, SPACE_BYTES);
                    }
                    default -> {
                        assertEquals(models[m].tagAt(from), maps[m].tagAt(from));
                        assertEquals(models[m].contentHash(from, 70_000), maps[m].contentHash(from, 70_000));
                    }
                }
                if (step % 101 == 0) {
                    for (int k = 0; k < 2; k++) {
                        assertEquals(models[k].runCount(), maps[k].runCount(), "seed " + seed + " step " + step);
                        assertEquals(pieces(models[k], 0, Long.MAX_VALUE), pieces(maps[k], 0, Long.MAX_VALUE),
                            "seed " + seed + " step " + step + " map " + k);
                    }
                }
            }
        }
    }

    /** A torn write's written pieces over 64 KiB: whole pages and sector runs, ascending and disjoint. */
    private static long[] tornPieces(final Random random) {
        final List<Long> out = new ArrayList<>();
        long at = 0;
        while (at < 64 * 1024) {
            final long length = 512L * (1 + random.nextInt(12));
            if (random.nextInt(3) > 0) {
                out.add(at);
                out.add(Math.min(length, 64 * 1024 - at));
            }
            at += length + 512L * random.nextInt(3);
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void shouldCopyPiecesRunForRunAsOneCopyFromEachFromAMapOrItsSnapshot() {
        final Random random = new Random(23);
        for (int round = 0; round < 300; round++) {
            final RunMap content = new RunMap();
            final RunMap viaCopyFrom = new RunMap();
            final RunMap viaPieces = new RunMap();
            final RunMap viaSnapshot = new RunMap();
            final RunMap viaSnapshotEach = new RunMap();
            final TreeRunMap model = new TreeRunMap();
            final TreeRunMap contentModel = new TreeRunMap();
            final long writeBytes = 4096L * (1 + random.nextInt(round % 7 == 0 ? 600 : 40));
            for (int i = 0; i < 1 + random.nextInt(40); i++) {
                final long at = random.nextLong(writeBytes);
                final long length = 1 + random.nextLong(Math.min(writeBytes - at, 9000));
                final long tag = 1L + random.nextInt(5);
                content.put(at, length, tag, at * 3);
                contentModel.put(at, length, tag, at * 3);
            }
            final int background = round % 3 == 0 ? 3000 : 300;
            for (int i = 0; i < background; i++) {
                final long at = random.nextLong(SPACE_BYTES);
                // Whole runs only: a run of no bytes inside another is not a state the maps are built for.
                final long length = 1 + random.nextLong(random.nextBoolean() ? 600 : 20_000);
                final long tag = 100L + random.nextInt(9);
                viaCopyFrom.put(at, length, tag, at);
                viaPieces.put(at, length, tag, at);
                viaSnapshot.put(at, length, tag, at);
                viaSnapshotEach.put(at, length, tag, at);
                model.put(at, length, tag, at);
            }
            final RunSnapshot snapshot = content.snapshot(0, writeBytes);
            final long[] pieces = new long[2 * 4096];
            int count = 0;
            long at = random.nextInt(4) * 512L;
            while (at < writeBytes && count < 4096) {
                final long length = Math.min(writeBytes - at, 512L * (1 + random.nextInt(round % 2 == 0 ? 3 : 40)));
                pieces[2 * count] = at;
                pieces[2 * count + 1] = length;
                count++;
                at += length + 512L * random.nextInt(3);
            }
            final long fileOffset = 4096L * random.nextInt(200);
            for (int k = 0; k < count; k++) {
                viaCopyFrom.copyFrom(content, pieces[2 * k], fileOffset + pieces[2 * k], pieces[2 * k + 1]);
                model.copyFrom(contentModel, pieces[2 * k], fileOffset + pieces[2 * k], pieces[2 * k + 1]);
            }
            viaPieces.copyPieces(content, 0, fileOffset, pieces, count);
            content.put(0, writeBytes, 77, 0); // the snapshot keeps what the map held when it was taken
            viaSnapshot.copyPieces(snapshot, 0, fileOffset, pieces, count);
            for (int k = 0; k < count; k++) {
                viaSnapshotEach.copyFrom(snapshot, pieces[2 * k], fileOffset + pieces[2 * k], pieces[2 * k + 1]);
            }
            assertEquals(pieces(viaPieces, 0, Long.MAX_VALUE), pieces(viaSnapshot, 0, Long.MAX_VALUE));
            assertEquals(viaPieces.runCount(), viaSnapshot.runCount(), "round " + round);
            assertEquals(pieces(viaCopyFrom, 0, Long.MAX_VALUE), pieces(viaSnapshotEach, 0, Long.MAX_VALUE));
            assertEquals(viaCopyFrom.runCount(), viaSnapshotEach.runCount(), "round " + round);
            assertEquals(pieces(model, 0, Long.MAX_VALUE), pieces(viaPieces, 0, Long.MAX_VALUE), "round " + round);
            assertEquals(viaCopyFrom.runCount(), viaPieces.runCount(), "round " + round);
            assertEquals(model.runCount(), viaPieces.runCount(), "round " + round);
            assertEquals(model.contentHash(0, 4 * SPACE_BYTES), viaPieces.contentHash(0, 4 * SPACE_BYTES));
            for (int probe = 0; probe < 50; probe++) {
                final long offset = random.nextLong(SPACE_BYTES);
                assertEquals(model.tagAt(offset), viaPieces.tagAt(offset));
            }
            viaPieces.put(fileOffset + 100, 7000, 99, 1);
            model.put(fileOffset + 100, 7000, 99, 1);
            assertEquals(pieces(model, 0, Long.MAX_VALUE), pieces(viaPieces, 0, Long.MAX_VALUE), "round " + round);
        }
    }

    @Test
    void shouldCopyPiecesOfADenseSnapshotOverDenseRunsAsTheModelDoes() {
        final Random random = new Random(41);
        for (int round = 0; round < 40; round++) {
            // A write's content in a run per sector or so, and a durable image of many small runs under it: the
            // pieces skip from none to hundreds of the snapshot's runs, and the old runs kept between them span blocks.
            final long writeBytes = 4096L * (64 + random.nextInt(400));
            final RunMap content = new RunMap();
            final TreeRunMap contentModel = new TreeRunMap();
            for (long at = 0; at < writeBytes;) {
                final long length = Math.min(writeBytes - at, 1 + random.nextInt(round % 2 == 0 ? 600 : 5000));
                final long tag = 1L + random.nextInt(3);
                content.put(at, length, tag, at + 7);
                contentModel.put(at, length, tag, at + 7);
                at += length + (random.nextInt(4) == 0 ? random.nextInt(900) : 0);
            }
            final RunMap map = new RunMap();
            final TreeRunMap model = new TreeRunMap();
            for (long at = random.nextInt(5000); at < SPACE_BYTES; at += 1 + random.nextInt(700)) {
                final long length = 1L + random.nextInt(700);
                final long tag = 50L + random.nextInt(3);
                map.put(at, length, tag, at);
                model.put(at, length, tag, at);
            }
            final RunSnapshot snapshot = content.snapshot(0, writeBytes);
            final long[] pieces = new long[2 * 8192];
            int count = 0;
            for (long at = 512L * random.nextInt(8); at < writeBytes && count < 8192;) {
                final long length = Math.min(writeBytes - at, 512L * (1 + random.nextInt(12)));
                pieces[2 * count] = at;
                pieces[2 * count + 1] = length;
                count++;
                at += length + 512L * (random.nextInt(3) == 0 ? random.nextInt(round % 3 == 0 ? 400 : 20) : 1);
            }
            final long fileOffset = 4096L * random.nextInt(64);
            map.copyPieces(snapshot, 0, fileOffset, pieces, count);
            for (int k = 0; k < count; k++) {
                model.copyFrom(contentModel, pieces[2 * k], fileOffset + pieces[2 * k], pieces[2 * k + 1]);
            }
            assertEquals(pieces(model, 0, Long.MAX_VALUE), pieces(map, 0, Long.MAX_VALUE), "round " + round);
            assertEquals(model.runCount(), map.runCount(), "round " + round);
        }
    }

    @Test
    void shouldRefusePiecesOutOfOrder() {
        final RunMap map = new RunMap();
        assertThrows(IllegalArgumentException.class,
            () -> map.copyPieces(new RunMap(), 0, 0, new long[] {4096, 512, 0, 512}, 2));
        assertThrows(IllegalArgumentException.class, () -> map.copyPieces(new RunMap(), 0, 0, new long[] {0, 0}, 1));
    }

    @Test
    void shouldKeepAMillionSectorRunsInOrderAndCopyThemWhole() {
        final RunMap torn = new RunMap();
        final TreeRunMap model = new TreeRunMap();
        for (long sector = 0; sector < 200_000; sector++) {
            torn.put(sector * 1024, 512, sector, 0);
            model.put(sector * 1024, 512, sector, 0);
        }
        final RunMap copy = new RunMap();
        copy.copyFrom(torn, 0, 0, 200_000L * 1024);
        assertEquals(200_000, copy.runCount());
        assertEquals(model.contentHash(0, 200_000L * 1024), copy.contentHash(0, 200_000L * 1024));
        copy.clear(1024, 199_999L * 1024);
        assertEquals(List.of(List.of(0L, 512L, 0L, 0L), List.of(199_999L * 1024, 512L, 199_999L, 0L)),
            pieces(copy, 0, Long.MAX_VALUE));
    }

    private static List<List<Long>> pieces(final RunMap map, final long from, final long to) {
        final List<List<Long>> out = new ArrayList<>();
        map.forEachPiece(from, to, (a, len, tag, pos) -> out.add(List.of(a, len, tag, pos)));
        return out;
    }

    private static List<List<Long>> pieces(final TreeRunMap map, final long from, final long to) {
        final List<List<Long>> out = new ArrayList<>();
        map.forEachPiece(from, to, (a, len, tag, pos) -> out.add(List.of(a, len, tag, pos)));
        return out;
    }
}
