package dev.kvtier.core.server;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.L2Admission;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.index.IndexIo;
import dev.kvtier.core.index.IndexLayout;
import dev.kvtier.core.index.IndexLog;
import dev.kvtier.core.index.IndexOpener;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.l2.LookupResult;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.span.SpanCoalescer;
import dev.kvtier.core.span.StoreSpan;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.store.TieredStore;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The server: the L2 directory (key map and ring), the server boundary (span validation, stale-span filtering,
 * coalescing) and the tiered store, behind one set of inputs. Built once per run by a composition root (the
 * simulator or the CLI) with its ports.
 *
 * <p>Every server has an index device and its L2 index is crash-safe: {@link #open} first recovers the index from
 * that device (or formats a fresh one) and no other input is taken before it is open. Tests open it too (the core's
 * testkit does it for them).
 */
public final class KvServer {
    /** Largest index I/O. */
    public static final long INDEX_BUFFER_BYTES = 1L << 20;

    private final CoreConfig config;
    private final Memory memory;
    private final EventSink sink;
    private final L2Directory directory;
    private final TieredStore tieredStore;
    private final IndexLayout layout;
    private boolean open;

    /** A server with a crash-safe index on {@code indexDevice}; call {@link #open} before anything else. */
    public KvServer(final CoreConfig config, final Memory memory, final Device device, final Device indexDevice,
                    final EventSink sink) {
        this.config = config;
        this.memory = memory;
        this.sink = sink;
        Objects.requireNonNull(indexDevice, "indexDevice");
        this.layout = indexLayout(config);
        if (indexDevice.capacityBytes() < layout.deviceBytes()) {
            throw new IllegalArgumentException("index device holds " + indexDevice.capacityBytes() + " B, the index of "
                + config.l2Slots() + " slots needs " + layout.deviceBytes() + " B");
        }
        this.directory = new L2Directory(config.slotBytes(), config.l2Slots(), sink);
        if (config.l2Admission() == L2Admission.SECOND_SIGHT) {
            directory.admitOnSecondSight();
        }
        this.tieredStore = new TieredStore(config, memory, device, indexDevice, sink, directory);
    }

    /** Where the index lives on its device, for a config. */
    public static IndexLayout indexLayout(final CoreConfig config) {
        return IndexLayout.forSlots(config.l2Slots());
    }

    /**
     * Opens the crash-safe index: {@code recover} rebuilds it from the index device (newest intact checkpoint plus
     * the intact log records after it), otherwise a fresh, empty index is formatted. Either way a checkpoint of the
     * result is made durable before {@code done} is called with null; {@code done} gets a one-line error instead when
     * the device cannot be used.
     */
    public void open(final boolean recover, final Consumer<String> done) {
        if (open || directory.indexLog() != null) {
            throw new IllegalStateException("index already opened");
        }
        sink.emit(new CoreEvent.IndexOpenRequested(recover));
        final IndexIo io = tieredStore.indexIo(Math.min(INDEX_BUFFER_BYTES, layout.deviceBytes()));
        IndexOpener.open(layout, config.slotBytes(), config.l2Slots(), memory, io, sink, recover, opened -> {
            if (opened.error() != null) {
                done.accept(opened.error());
                return;
            }
            directory.restore(opened.chunks());
            final IndexLog log = new IndexLog(layout, config.slotBytes(), config.l2Slots(), memory, io, sink,
                directory::loggedChunks);
            directory.setIndexLog(log);
            log.open(opened.epoch(), opened.checkpointSeq(), opened.newestArea(), opened.nextSeq(), ok -> {
                open = ok;
                done.accept(ok ? null : "the index device refused the first checkpoint");
            });
        });
    }

    /**
     * Shuts the store down durably: waits until no L2 write is pending, flushes the data device, then waits until
     * every index record is written and the index device flushed (so a key committed in {@code l1} mode survives a
     * later restart too). {@code done} gets null when all of it is durable, else one line saying what failed. No input
     * is taken afterwards.
     */
    public void shutdown(final Consumer<String> done) {
        requireOpen();
        sink.emit(new CoreEvent.ShutdownRequested());
        open = false;
        tieredStore.flushData(dataError -> {
            if (dataError != null) {
                sink.emit(new CoreEvent.ShutdownCompleted(false));
                done.accept(dataError);
                return;
            }
            final IndexLog log = directory.indexLog();
            log.whenDurable(log.lastSeq(), ok -> {
                sink.emit(new CoreEvent.ShutdownCompleted(ok));
                done.accept(ok ? null : "the index device failed at shutdown; its last records may be lost");
            });
        });
    }

    /** True once the index is open, until shutdown. */
    public boolean isOpen() {
        return open;
    }

    public CoreConfig config() {
        return config;
    }

    public L2Directory directory() {
        return directory;
    }

    public TieredStore tieredStore() {
        return tieredStore;
    }

    public LookupResult lookup(final int modelId, final List<PrefixKey> keys) {
        requireOpen();
        return directory.lookup(modelId, keys);
    }

    public List<AllocationResult> allocate(final long requestId, final int modelId, final List<PrefixKey> keys,
                                           final int slotsPerKey) {
        requireOpen();
        return directory.allocate(requestId, modelId, keys, slotsPerKey);
    }

    /** Commits (see {@link TieredStore#commit}); {@code done} gets how many became visible. */
    public void commit(final List<AllocationRef> refs, final Consumer<Integer> done) {
        requireOpen();
        tieredStore.commit(refs, done);
    }

    public boolean release(final AllocationRef ref) {
        requireOpen();
        return directory.release(ref);
    }

    /**
     * The server boundary for one staging batch: spans that are misaligned, outside their allocation or stale, or
     * that would change the bytes of a committed allocation, are dropped (their allocations reported rejected); the
     * rest are coalesced (when on) or passed in the order sent, then stored as one group.
     */
    public void store(final long storeId, final MemoryRegion source, final List<SpanPiece> sent,
                      final Consumer<StoreResult> done) {
        requireOpen();
        sink.emit(new CoreEvent.StoreSent(storeId, sent));
        final List<SpanPiece> kept = new ArrayList<>(sent.size());
        final Map<Long, AllocationRef> rejected = new LinkedHashMap<>();
        for (final SpanPiece p : sent) {
            final RejectReason reason = check(p, source);
            if (reason == null) {
                kept.add(p);
                continue;
            }
            rejected.put(p.alloc().allocationId(), p.alloc());
            sink.emit(new CoreEvent.SpanRejected(storeId, p.alloc().key(), p.alloc().allocationId(), p.fileOffset(),
                p.lengthBytes(), reason));
        }
        final List<StoreSpan> shaped = SpanCoalescer.shape(kept, config.coalesceStoreSpans());
        sink.emit(new CoreEvent.SpansCoalesced(storeId, sent.size(), shaped.size()));
        tieredStore.store(storeId, source, shaped, List.copyOf(rejected.values()), done);
    }

    public void load(final long loadId, final List<LoadRange> ranges, final MemoryRegion dest,
                     final Consumer<LoadResult> done) {
        requireOpen();
        tieredStore.load(loadId, ranges, dest, done);
    }

    public void onIoComplete(final IoCompletion completion) {
        tieredStore.onIoComplete(completion);
    }

    public void drain(final Runnable done) {
        tieredStore.drain(done);
    }

    public void close() {
        tieredStore.close();
    }

    private void requireOpen() {
        if (!open) {
            throw new IllegalStateException("the index is not open: call open() and wait for it first");
        }
    }

    private RejectReason check(final SpanPiece p, final MemoryRegion source) {
        if (!Alignment.isAligned(p.fileOffset()) || !Alignment.isAligned(p.lengthBytes())
            || !Alignment.isAligned(p.srcOffset()) || p.srcEnd() > source.sizeBytes()) {
            return RejectReason.MISALIGNED;
        }
        final long allocStart = p.alloc().fileOffset(config.slotBytes());
        if (p.fileOffset() < allocStart || p.fileEnd() > allocStart + p.alloc().lengthBytes(config.slotBytes())) {
            return RejectReason.OUTSIDE_ALLOCATION;
        }
        if (!directory.isCurrent(p.alloc())) {
            return RejectReason.STALE;
        }
        if (directory.isCommitted(p.alloc()) && !tieredStore.sameAsKept(p, source)) {
            return RejectReason.COMMITTED; // a committed allocation's bytes never change (4.2)
        }
        if (p.lengthBytes() > tieredStore.l1().pool().capacityBytes()) {
            return RejectReason.LARGER_THAN_L1;
        }
        return null;
    }
}
