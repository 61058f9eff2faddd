package dev.kvtier.core.index;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Opens the index on its device, one I/O at a time. Reads both checkpoint headers; when the newest intact checkpoint
 * is of another ring geometry, recovering is an error (the device belongs to another store); an older or garbled
 * header of another geometry (a format leaves the previous owner's checkpoint in the other area) is ignored. To
 * <b>recover</b>: takes the newest intact checkpoint, then replays the records of the log area that follow it in
 * sequence (same epoch, consecutive sequence numbers, intact CRC), stopping at the first that is not; a chunk whose
 * slots a later commit reuses is dropped. To <b>format</b> (a fresh start, or no checkpoint found): starts empty.
 * Either way the index goes on with an epoch above every epoch on the device, so no old record can ever be taken for
 * a new one, and the caller then writes a checkpoint of the result ({@link IndexLog#open}) before serving anything.
 */
public final class IndexOpener {
    /** What was found. {@code error} is non-null (one line) when the device cannot be used. */
    public record Opened(long epoch, long checkpointSeq, int newestArea, long nextSeq, List<IndexChunk> chunks,
                         boolean recovered, long records, long bytesRead, String error) {}

    private final IndexLayout layout;
    private final long slotBytes;
    private final int slotCount;
    private final Memory memory;
    private final IndexIo io;
    private final EventSink sink;
    private final boolean recover;
    private final Consumer<Opened> done;
    private final IndexCodec.CheckpointHeader[] headers = new IndexCodec.CheckpointHeader[2];
    private long bytesRead;
    private long maxForeignEpoch;

    private IndexOpener(final IndexLayout layout, final long slotBytes, final int slotCount, final Memory memory,
                        final IndexIo io, final EventSink sink, final boolean recover, final Consumer<Opened> done) {
        this.layout = layout;
        this.slotBytes = slotBytes;
        this.slotCount = slotCount;
        this.memory = memory;
        this.io = io;
        this.sink = sink;
        this.recover = recover;
        this.done = done;
    }

    /** Starts opening; {@code done} is called once, from a completion. */
    public static void open(final IndexLayout layout, final long slotBytes, final int slotCount, final Memory memory,
                            final IndexIo io, final EventSink sink, final boolean recover,
                            final Consumer<Opened> done) {
        new IndexOpener(layout, slotBytes, slotCount, memory, io, sink, recover, done).readHeader(0);
    }

    private void readHeader(final int which) {
        read(layout.checkpointOffset(which), 4096, bytes -> {
            if (bytes == null) {
                return;
            }
            headers[which] = IndexCodec.readHeader(bytes);
            final IndexCodec.CheckpointHeader h = headers[which];
            if (h != null && !ownGeometry(h)) {
                // Another ring's header is an error only if it is the newest intact checkpoint (tryCheckpoint): a
                // stale one left in the other area by a format, or a garbled header of ours, is not.
                maxForeignEpoch = Math.max(maxForeignEpoch, h.epoch());
                if (!recover) {
                    headers[which] = null;
                }
            }
            if (which == 0) {
                readHeader(1);
            } else {
                choose();
            }
        });
    }

    private void choose() {
        final List<Integer> order = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            if (headers[s] != null) {
                order.add(s);
            }
        }
        order.sort(Comparator.comparing((Integer s) -> headers[s].epoch())
            .thenComparing(s -> headers[s].checkpointSeq()).reversed());
        final long maxEpoch = Math.max(maxForeignEpoch, order.isEmpty() ? 0 : headers[order.getFirst()].epoch());
        if (!recover || order.isEmpty()) {
            finish(new Opened(maxEpoch + 1, 0, order.isEmpty() ? 1 : order.getFirst(), 1, List.of(), false, 0,
                bytesRead, null));
            return;
        }
        tryCheckpoint(order, 0, maxEpoch);
    }

    private void tryCheckpoint(final List<Integer> order, final int i, final long maxEpoch) {
        if (i == order.size()) {
            // No intact checkpoint: nothing can be trusted; start empty above every epoch seen.
            finish(new Opened(maxEpoch + 1, 0, order.getFirst(), 1, List.of(), false, 0, bytesRead, null));
            return;
        }
        final int which = order.get(i);
        final IndexCodec.CheckpointHeader h = headers[which];
        final long length = Alignment.up(IndexCodec.CHECKPOINT_HEADER_BYTES + (long) h.bodyBytes());
        if (length > layout.checkpointBytes()) {
            if (!ownGeometry(h)) {
                finishForeign(h); // cannot be verified here: refuse rather than overwrite another ring's index
                return;
            }
            tryCheckpoint(order, i + 1, maxEpoch);
            return;
        }
        readAll(layout.checkpointOffset(which), length, bytes -> {
            final List<IndexChunk> chunks = bytes == null ? null : IndexCodec.readBody(bytes, h);
            if (chunks == null) {
                tryCheckpoint(order, i + 1, maxEpoch);
                return;
            }
            if (!ownGeometry(h)) {
                finishForeign(h);
                return;
            }
            readLog(h, which, chunks, maxEpoch);
        });
    }

    private boolean ownGeometry(final IndexCodec.CheckpointHeader h) {
        return h.slotBytes() == slotBytes && h.slotCount() == slotCount;
    }

    private void finishForeign(final IndexCodec.CheckpointHeader h) {
        finishError("the index device holds the index of another ring (" + h.slotCount() + " slots of "
            + h.slotBytes() + " B; this ring has " + slotCount + " slots of " + slotBytes + " B)");
    }

    private void readLog(final IndexCodec.CheckpointHeader h, final int which, final List<IndexChunk> base,
                         final long maxEpoch) {
        final Replayed state = new Replayed(base, h.nextRecordSeq());
        final byte[] area = new byte[Math.toIntExact(layout.logBytes())];
        readLogPiece(h, which, state, area, 0, maxEpoch);
    }

    /**
     * Reads the log area one buffer at a time, replaying every intact record in sequence as soon as it is whole, and
     * stops at the first that is not intact (or at the area's end): a log that ends early is not read to the end.
     */
    private void readLogPiece(final IndexCodec.CheckpointHeader h, final int which, final Replayed state,
                              final byte[] area, final int filled, final long maxEpoch) {
        final int length = (int) Math.min(io.buffer().sizeBytes(), area.length - filled);
        read(layout.logOffset() + filled, length, piece -> {
            if (piece == null) {
                return;
            }
            System.arraycopy(piece, 0, area, filled, length);
            final int now = filled + length;
            while (true) {
                final IndexCodec.Record r = IndexCodec.readRecord(area, state.at, now, h.epoch(), state.seq);
                if (r == null) {
                    break;
                }
                state.apply(r);
                state.at += IndexCodec.recordLength(area, state.at);
            }
            if (now < area.length && IndexCodec.incomplete(area, state.at, now)) {
                readLogPiece(h, which, state, area, now, maxEpoch);
                return;
            }
            final List<IndexChunk> chunks = new ArrayList<>(state.live.values());
            chunks.sort(Comparator.comparingLong(IndexChunk::allocationId));
            // A new epoch, above every one on the device: the log area still holds records of this incarnation
            // (and older) past the replayed ones; with the same epoch, one could sit exactly where the new lap
            // expects its next sequence number and be replayed after a later crash.
            final long next = Math.max(maxEpoch, h.epoch()) + 1;
            finish(new Opened(next, h.checkpointSeq(), which, state.seq, chunks, true, state.records, bytesRead, null));
        });
    }

    /**
     * The index as the records replayed so far leave it: live chunks by allocation, by start slot and by key. A
     * COMMIT drops every live chunk whose slots it reuses or whose key it takes again (a log prefix has their EVICT
     * records first; this keeps a damaged log from yielding overlapping chunks). Each record costs O(log n).
     */
    private static final class Replayed {
        final Map<Long, IndexChunk> live = new LinkedHashMap<>();
        final TreeMap<Integer, IndexChunk> bySlot = new TreeMap<>();
        final Map<PrefixKey, IndexChunk> byKey = new HashMap<>();
        long seq;
        long records;
        int at;

        Replayed(final List<IndexChunk> base, final long firstSeq) {
            for (final IndexChunk c : base) {
                add(c);
            }
            this.seq = firstSeq;
        }

        void apply(final IndexCodec.Record r) {
            switch (r) {
                case IndexCodec.Commit c -> {
                    final IndexChunk n = c.chunk();
                    for (Map.Entry<Integer, IndexChunk> e = bySlot.lowerEntry(n.endSlot()); e != null
                        && e.getValue().endSlot() > n.startSlot(); e = bySlot.lowerEntry(n.endSlot())) {
                        remove(e.getValue());
                    }
                    final IndexChunk sameKey = byKey.get(n.key());
                    if (sameKey != null) {
                        remove(sameKey);
                    }
                    add(n);
                }
                case IndexCodec.Evict e -> {
                    final IndexChunk gone = live.get(e.allocationId());
                    if (gone != null) {
                        remove(gone);
                    }
                }
            }
            seq++;
            records++;
        }

        private void add(final IndexChunk c) {
            live.put(c.allocationId(), c);
            bySlot.put(c.startSlot(), c);
            byKey.put(c.key(), c);
        }

        private void remove(final IndexChunk c) {
            live.remove(c.allocationId());
            bySlot.remove(c.startSlot());
            byKey.remove(c.key());
        }
    }

    /** Reads {@code length} bytes at {@code offset} in buffer-sized pieces; null to {@code then} on an error. */
    private void readAll(final long offset, final long length, final Consumer<byte[]> then) {
        final byte[] out = new byte[Math.toIntExact(length)];
        readPiece(offset, out, 0, then);
    }

    private void readPiece(final long offset, final byte[] out, final int from, final Consumer<byte[]> then) {
        if (from >= out.length) {
            then.accept(out);
            return;
        }
        final int length = (int) Math.min(io.buffer().sizeBytes(), out.length - from);
        read(offset + from, length, piece -> {
            if (piece == null) {
                return;
            }
            System.arraycopy(piece, 0, out, from, length);
            readPiece(offset, out, from + length, then);
        });
    }

    private void read(final long offset, final int length, final Consumer<byte[]> then) {
        io.submit(IoOp.READ, offset, length, result -> {
            if (result != length) {
                finishError("index device read at " + offset + " failed: " + result);
                then.accept(null);
                return;
            }
            bytesRead += length;
            final byte[] bytes = new byte[length];
            memory.read(io.buffer(), 0, bytes, 0, length);
            then.accept(bytes);
        });
    }

    private void finishError(final String error) {
        finish(new Opened(0, 0, 0, 0, List.of(), false, 0, bytesRead, error));
    }

    private void finish(final Opened opened) {
        if (opened.error() == null) {
            sink.emit(new CoreEvent.IndexOpened(opened.epoch(), opened.recovered(), opened.chunks().size(),
                opened.records(), opened.bytesRead()));
        }
        done.accept(opened);
    }
}
