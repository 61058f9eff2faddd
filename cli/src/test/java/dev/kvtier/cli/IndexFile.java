package dev.kvtier.cli;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.index.IndexChunk;
import dev.kvtier.core.index.IndexCodec;
import dev.kvtier.core.index.IndexLayout;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.realio.files.HeaderLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and rewrites an index device file outside the core (after kvtier's header, {@link HeaderLayout#BYTES}), with
 * the core's own codec, for tests that tamper with a persisted index: the newest intact checkpoint plus the log records
 * after it, and a new checkpoint written over the other slot (with nothing after it in the log).
 */
final class IndexFile {
    /** The state found: the newest intact checkpoint's header and slot, and the chunks after replaying the log. */
    record State(IndexCodec.CheckpointHeader header, int slot, long nextSeq, List<IndexChunk> chunks) {}

    private final Path path;
    private final IndexLayout layout;
    private final CoreConfig config;

    IndexFile(final Path path, final CoreConfig config) {
        this.path = path;
        this.config = config;
        this.layout = KvServer.indexLayout(config);
    }

    State read() throws IOException {
        IndexCodec.CheckpointHeader best = null;
        int bestSlot = -1;
        List<IndexChunk> base = null;
        for (int s = 0; s < 2; s++) {
            final byte[] area = bytes(layout.checkpointOffset(s), layout.checkpointBytes());
            final IndexCodec.CheckpointHeader h = IndexCodec.readHeader(area);
            final List<IndexChunk> chunks = h == null ? null : IndexCodec.readBody(area, h);
            if (chunks != null && (best == null || h.epoch() > best.epoch()
                || (h.epoch() == best.epoch() && h.checkpointSeq() > best.checkpointSeq()))) {
                best = h;
                bestSlot = s;
                base = chunks;
            }
        }
        if (best == null) {
            throw new IllegalStateException(path + " holds no intact checkpoint");
        }
        final Map<Long, IndexChunk> live = new LinkedHashMap<>();
        base.forEach(c -> live.put(c.allocationId(), c));
        final byte[] log = bytes(layout.logOffset(), layout.logBytes());
        long seq = best.nextRecordSeq();
        int at = 0;
        for (IndexCodec.Record r = IndexCodec.readRecord(log, at, log.length, best.epoch(),
            seq); r != null; r = IndexCodec.readRecord(log, at, log.length, best.epoch(), seq)) {
            switch (r) {
                case IndexCodec.Commit c -> {
                    final IndexChunk n = c.chunk();
                    live.values().removeIf(o -> o.startSlot() < n.startSlot() + n.slotCount()
                        && n.startSlot() < o.startSlot() + o.slotCount());
                    live.put(n.allocationId(), n);
                }
                case IndexCodec.Evict e -> live.remove(e.allocationId());
            }
            at += IndexCodec.recordLength(log, at);
            seq++;
        }
        final List<IndexChunk> chunks = new ArrayList<>(live.values());
        chunks.sort((a, b) -> Long.compare(a.allocationId(), b.allocationId()));
        return new State(best, bestSlot, seq, chunks);
    }

    /** Writes {@code chunks} as the newest checkpoint (over the slot not holding {@code after}'s), durably. */
    void writeCheckpoint(final State after, final List<IndexChunk> chunks) throws IOException {
        final IndexCodec.CheckpointHeader h = after.header();
        final byte[] cp = IndexCodec.checkpoint(h.epoch(), h.checkpointSeq() + 1, after.nextSeq(), config.slotBytes(),
            config.l2Slots(), chunks);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            final ByteBuffer b = ByteBuffer.wrap(cp);
            long at = HeaderLayout.BYTES + layout.checkpointOffset(1 - after.slot());
            while (b.hasRemaining()) {
                at += ch.write(b, at);
            }
            ch.force(true);
        }
    }

    /** The chunks with the keys of the first two one-slot chunks swapped (slots and checksums stay in place). */
    static List<IndexChunk> swapFirstTwoKeys(final List<IndexChunk> chunks) {
        final List<IndexChunk> out = new ArrayList<>(chunks);
        int a = -1;
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).slotCount() != 1) {
                continue;
            }
            if (a < 0) {
                a = i;
                continue;
            }
            final IndexChunk x = out.get(a);
            final IndexChunk y = out.get(i);
            out.set(a, new IndexChunk(y.key(), x.modelId(), x.allocationId(), x.startSlot(), 1, x.sums(), x.known()));
            out.set(i, new IndexChunk(x.key(), y.modelId(), y.allocationId(), y.startSlot(), 1, y.sums(), y.known()));
            return out;
        }
        throw new IllegalStateException("fewer than two one-slot chunks");
    }

    private byte[] bytes(final long offset, final long length) throws IOException {
        final ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(length));
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long at = HeaderLayout.BYTES + offset;
            while (b.hasRemaining()) {
                final int n = ch.read(b, at);
                if (n < 0) {
                    break;
                }
                at += n;
            }
        }
        return b.array();
    }
}
