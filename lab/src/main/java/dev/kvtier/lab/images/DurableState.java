package dev.kvtier.lab.images;

import dev.kvtier.realio.record.DeviceRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The durable state of both devices at a cut, built going forward: for each device page, the recorded contents that
 * hold it ({@code 1 +} a page of the store; 0 for zeros, what a fresh file holds) and the number of the write that put
 * them there. Advancing to a later cut applies the writes that became durable in between; a write never replaces a
 * later write's page (the later one is what the disk holds, whatever order the flushes made them durable in).
 */
final class DurableState {
    private final int[][] content = new int[2][];
    private final int[][] writer = new int[2][];
    private final List<Timeline.Write> byDurable;
    private int next;
    private int cut;

    DurableState(final Timeline t, final long dataBytes, final long indexBytes) {
        content[at(DeviceRole.DATA)] = new int[pages(dataBytes)];
        content[at(DeviceRole.INDEX)] = new int[pages(indexBytes)];
        writer[0] = new int[content[0].length];
        writer[1] = new int[content[1].length];
        final List<Timeline.Write> durable = new ArrayList<>();
        for (final Timeline.Write w : t.writes()) {
            if (w.durableAt() != Timeline.NEVER) {
                if (w.firstPage() + w.pages() > content[at(w.role())].length) {
                    throw new IllegalArgumentException("write " + w.number() + " ends past its device");
                }
                durable.add(w);
            }
        }
        durable.sort(Comparator.comparingInt(Timeline.Write::durableAt).thenComparingInt(Timeline.Write::number));
        this.byDurable = durable;
    }

    /** A device's place in the arrays (an EnumMap would box every page look-up's way in). */
    private static int at(final DeviceRole role) {
        return role == DeviceRole.DATA ? 0 : 1;
    }

    private static int pages(final long bytes) {
        return Math.toIntExact(bytes / dev.kvtier.realio.record.PageStore.PAGE_BYTES);
    }

    /** Moves to {@code to}, at or after the current cut. */
    void advanceTo(final int to) {
        if (to < cut) {
            throw new IllegalArgumentException("the durable state goes forward only: at cut " + cut + ", asked " + to);
        }
        cut = to;
        while (next < byDurable.size() && byDurable.get(next).durableAt() < to) {
            apply(byDurable.get(next++));
        }
    }

    private void apply(final Timeline.Write w) {
        final int[] c = content[at(w.role())];
        final int[] by = writer[at(w.role())];
        for (int p = 0; p < w.pages(); p++) {
            final int page = Math.toIntExact(w.firstPage() + p);
            if (by[page] <= w.number()) {
                c[page] = 1 + w.content() + p;
                by[page] = w.number() + 1;
            }
        }
    }

    /** The contents of a page of {@code role}: {@code 1 +} a store page, or 0 for zeros. */
    int content(final DeviceRole role, final long page) {
        return content[at(role)][Math.toIntExact(page)];
    }

    /** The number (plus 1) of the write whose contents a page holds, or 0. */
    int writer(final DeviceRole role, final long page) {
        return writer[at(role)][Math.toIntExact(page)];
    }

    /** Pages a device of {@code role} has. */
    int pages(final DeviceRole role) {
        return content[at(role)].length;
    }
}
