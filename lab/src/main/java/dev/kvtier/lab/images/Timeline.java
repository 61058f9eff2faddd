package dev.kvtier.lab.images;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.record.DeviceRole;
import dev.kvtier.realio.record.IoLog;
import dev.kvtier.realio.record.PageStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A recorded run's writes and flushes on one time line, and what a power cut at any point of it leaves. A <em>cut</em>
 * {@code c} (0 to {@link #cuts()}) falls after the record's first {@code c} entries: the I/O submitted and completed
 * by then is what happened. The model, per device (a flush covers only its own device):
 *
 * <ul>
 *   <li>a write is <b>durable</b> once a FLUSH of its device that was submitted after the write completed has
 *       completed without error;</li>
 *   <li>at cut {@code c}, every write submitted before {@code c} and not durable at {@code c} is <b>in flight</b>: a
 *       power cut may have kept any subset of them, each whole, not at all, or torn in 4 KiB pages (a write failed by
 *       its device stays in flight: its pages may or may not have landed);</li>
 *   <li>the acknowledgements a cut must honour are the core's events emitted before the entry after it.</li>
 * </ul>
 *
 * <p>A FLUSH submitted before a write completed does not cover it even if it completes after (the kernel may have
 * taken the flush first): the model only counts on what the run waited for. Writes are numbered in submission order;
 * where two land on one page, the later one is the page's content (the core never has two writes to one range in
 * flight).
 */
final class Timeline {
    /** Never (a write that no flush made durable). */
    static final int NEVER = Integer.MAX_VALUE;

    /**
     * One write.
     *
     * @param number     its place among the run's writes, in submission order
     * @param role       its device
     * @param firstPage  its first device page (offset / 4096)
     * @param pages      its pages
     * @param content    its first page's contents in the store (the others follow)
     * @param submitAt   the entry of its submission
     * @param durableAt  the entry of the completion of the flush that made it durable, or {@link #NEVER}
     */
    record Write(int number, DeviceRole role, long firstPage, int pages, int content, int submitAt, int durableAt) {}

    private final List<Write> writes;
    private final int cuts;
    private final long[] eventsAt;
    private final int flushes;
    private final List<Integer> flushPoints;

    private Timeline(final List<Write> writes, final int cuts, final long[] eventsAt, final int flushes,
                     final List<Integer> flushPoints) {
        this.writes = List.copyOf(writes);
        this.cuts = cuts;
        this.eventsAt = eventsAt;
        this.flushes = flushes;
        this.flushPoints = List.copyOf(flushPoints);
    }

    /** The time line of {@code log}, with {@code fault} planted in the durability model. */
    static Timeline of(final IoLog log, final PlantedFault fault) {
        return of(log.entries(), log.events(), fault);
    }

    /** The time line of {@code entries}, after which the run emitted {@code events} core events in all. */
    static Timeline of(final List<IoLog.Entry> entries, final long events, final PlantedFault fault) {
        final Map<Long, Integer> submitted = new HashMap<>();
        final List<Integer> submits = new ArrayList<>();
        final List<Integer> completes = new ArrayList<>();
        final List<int[]> flushSpans = new ArrayList<>();
        final List<DeviceRole> flushRoles = new ArrayList<>();
        final List<Integer> points = new ArrayList<>();
        final long[] eventsAt = new long[entries.size() + 1];
        for (int i = 0; i < entries.size(); i++) {
            final IoLog.Entry e = entries.get(i);
            eventsAt[i] = e.events();
            final long key = e.role() == DeviceRole.DATA ? e.ioId() : ~e.ioId();
            if (e.kind() == IoLog.Kind.SUBMIT) {
                submitted.put(key, submits.size());
                submits.add(i);
                completes.add(NEVER);
                continue;
            }
            final int s = submitted.remove(key);
            completes.set(s, e.result() < 0 ? NEVER : i);
            final boolean ignored = fault == PlantedFault.DATA_FLUSH_IGNORED && e.role() == DeviceRole.DATA;
            if (e.op() == IoOp.FLUSH && e.result() >= 0) {
                points.add(i);
            }
            if (e.op() == IoOp.FLUSH && e.result() >= 0 && !ignored) {
                flushSpans.add(new int[] {submits.get(s), i});
                flushRoles.add(e.role());
            }
        }
        eventsAt[entries.size()] = events;
        final List<Write> writes = new ArrayList<>();
        for (int s = 0; s < submits.size(); s++) {
            final IoLog.Entry e = entries.get(submits.get(s));
            if (e.op() != IoOp.WRITE) {
                continue;
            }
            final int completeAt = completes.get(s);
            int durableAt = NEVER;
            for (int f = 0; f < flushSpans.size() && completeAt != NEVER; f++) {
                if (flushRoles.get(f) == e.role() && flushSpans.get(f)[0] > completeAt) {
                    durableAt = flushSpans.get(f)[1];
                    break;
                }
            }
            writes.add(new Write(writes.size(), e.role(), e.offset() / PageStore.PAGE_BYTES,
                Math.toIntExact(e.lengthBytes() / PageStore.PAGE_BYTES), e.firstPage(), submits.get(s), durableAt));
        }
        return new Timeline(writes, entries.size(), eventsAt, points.size(), points);
    }

    /** Every write, in submission order. */
    List<Write> writes() {
        return writes;
    }

    /** The last cut: after every entry (the run's end). */
    int cuts() {
        return cuts;
    }

    /** Core events emitted before the entry after cut {@code cut} (all of them at the last cut). */
    long eventsAt(final int cut) {
        return eventsAt[cut];
    }

    /** Flushes that completed without error. */
    int flushes() {
        return flushes;
    }

    /** The entries at which those flushes completed, in order. */
    List<Integer> flushPoints() {
        return flushPoints;
    }

    /** How many writes are durable at cut {@code cut}. */
    int durableWrites(final int cut) {
        int n = 0;
        for (final Write w : writes) {
            n += w.durableAt() < cut ? 1 : 0;
        }
        return n;
    }

    /** The writes in flight at cut {@code cut}, in submission order. */
    List<Write> inFlight(final int cut) {
        final List<Write> out = new ArrayList<>();
        for (final Write w : writes) {
            if (w.submitAt() >= cut) {
                break;
            }
            if (w.durableAt() >= cut) {
                out.add(w);
            }
        }
        return out;
    }
}
