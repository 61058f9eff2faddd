package dev.kvtier.realio.record;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.value.IoOp;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a real run asked of its devices, in order: one {@link Entry} when a write or a flush was submitted to a device
 * and one when the loop took its completion, each numbered by the core events emitted before it (this log is also an
 * event sink of the run, and counts them, so an entry can be placed among the acknowledgements a run's other sinks
 * log). Reads are not logged: a power cut does not depend on them. Every write's contents are copied into a bounded
 * {@link PageStore} at submission, when the core has filled its buffer and will not touch it until the completion.
 *
 * <p>When the contents outgrow the store, the log stops logging and says so ({@link #overflowed}): a log that misses
 * writes cannot be used to build images. Confined to the run's loop thread; the map is for look-ups by I/O id.
 */
public final class IoLog implements EventSink {
    /** Whether an entry is a submission or a completion. */
    public enum Kind {
        SUBMIT,
        COMPLETE
    }

    /**
     * One entry.
     *
     * @param kind        a submission or a completion
     * @param role        the device
     * @param ioId        the core's id of the I/O
     * @param op          WRITE or FLUSH
     * @param offset      the device offset written (0 for a FLUSH)
     * @param lengthBytes bytes written (0 for a FLUSH)
     * @param firstPage   a write's first page in the store (its pages are consecutive); -1 otherwise
     * @param result      a completion's result (bytes or -errno); 0 for a submission
     * @param events      core events emitted before this entry
     */
    public record Entry(Kind kind, DeviceRole role, long ioId, IoOp op, long offset, long lengthBytes, int firstPage,
                        long result, long events) {
        public Entry {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(role, "role");
            if (op == IoOp.READ) {
                throw new IllegalArgumentException("reads are not logged");
            }
        }
    }

    private final PageStore pages;
    private final List<Entry> entries = new ArrayList<>();
    private final Map<Long, Entry> inFlight = new HashMap<>();
    private long events;
    private String overflowed;

    /** A log keeping at most {@code maxContentBytes} of written contents. */
    public IoLog(final long maxContentBytes) {
        this.pages = new PageStore(maxContentBytes);
    }

    @Override
    public void emit(final CoreEvent e) {
        events++;
    }

    /**
     * A log read back from disk: {@code entries} as {@link #entries} gave them, over {@code pages}, after a run of
     * {@code events} core events. It logs nothing more.
     */
    public static IoLog restored(final List<Entry> entries, final PageStore pages, final long events) {
        final IoLog log = new IoLog(pages);
        for (final Entry e : entries) {
            if (e.firstPage() >= 0 && e.firstPage() + e.lengthBytes() / PageStore.PAGE_BYTES > pages.pages()) {
                throw new IllegalArgumentException("entry " + e + " names pages past the " + pages.pages() + " held");
            }
            log.entries.add(e);
        }
        log.events = events;
        return log;
    }

    private IoLog(final PageStore pages) {
        this.pages = pages;
    }

    /** A write of {@code segments} (in file order, each {@code lengths[i]} bytes) at {@code offset}. */
    void write(final DeviceRole role, final long ioId, final long offset, final MemorySegment[] segments,
               final long[] from, final long[] lengths) {
        long total = 0;
        for (final long l : lengths) {
            total += l;
        }
        if (overflowed != null) {
            return;
        }
        if (!pages.fits(total)) {
            overflowed = "the recorded contents reached " + pages.bytes() + " B and the bound is " + pages.maxBytes()
                + " B";
            return;
        }
        int first = -1;
        for (int i = 0; i < segments.length; i++) {
            final int p = pages.add(segments[i], from[i], lengths[i]);
            first = i == 0 ? p : first;
        }
        submitted(new Entry(Kind.SUBMIT, role, ioId, IoOp.WRITE, offset, total, first, 0, events));
    }

    /** A flush of the device. */
    void flush(final DeviceRole role, final long ioId) {
        if (overflowed == null) {
            submitted(new Entry(Kind.SUBMIT, role, ioId, IoOp.FLUSH, 0, 0, -1, 0, events));
        }
    }

    private void submitted(final Entry e) {
        if (inFlight.put(key(e.role(), e.ioId()), e) != null) {
            throw new IllegalStateException(e.role() + " I/O " + e.ioId() + " submitted while in flight");
        }
        entries.add(e);
    }

    /** A completion the loop took: logged when it is a logged write's or flush's. */
    void completed(final DeviceRole role, final long ioId, final long result) {
        final Entry s = inFlight.remove(key(role, ioId));
        if (s != null && overflowed == null) {
            entries.add(new Entry(Kind.COMPLETE, role, ioId, s.op(), s.offset(), s.lengthBytes(), s.firstPage(),
                result, events));
        }
    }

    private static long key(final DeviceRole role, final long ioId) {
        return role == DeviceRole.DATA ? ioId : ~ioId;
    }

    /** The entries so far, in order. */
    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The written contents. */
    public PageStore pages() {
        return pages;
    }

    /** Core events emitted so far. */
    public long events() {
        return events;
    }

    /** Null, or why the log stopped before the run's end. */
    public String overflowed() {
        return overflowed;
    }
}
