package dev.kvtier.core.server;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.l2.LookupResult;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.span.SpanCoalescer;
import dev.kvtier.core.span.SpanPiece;
import dev.kvtier.core.span.StoreSpan;
import dev.kvtier.core.store.LoadRange;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.store.TieredStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The server: the L2 directory (index and ring), the server boundary (span validation, stale-span filtering,
 * coalescing) and the store engine, behind one set of inputs. Built once per run by a composition root (the
 * simulator or the CLI) with its ports.
 */
public final class KvServer {
    private final CoreConfig config;
    private final EventSink sink;
    private final L2Directory directory;
    private final TieredStore engine;

    public KvServer(final CoreConfig config, final Memory memory, final Device device, final EventSink sink) {
        this.config = config;
        this.sink = sink;
        this.directory = new L2Directory(config.slotBytes(), config.l2Slots(), sink);
        this.engine = new TieredStore(config, memory, device, sink, directory);
    }

    public CoreConfig config() {
        return config;
    }

    public L2Directory directory() {
        return directory;
    }

    public TieredStore engine() {
        return engine;
    }

    public LookupResult lookup(final int modelId, final List<PrefixKey> keys) {
        return directory.lookup(modelId, keys);
    }

    public List<AllocationResult> allocate(final long requestId, final int modelId, final List<PrefixKey> keys,
                                           final int slotsPerKey) {
        return directory.allocate(requestId, modelId, keys, slotsPerKey);
    }

    public int commit(final List<AllocationRef> refs) {
        return directory.commit(refs);
    }

    public boolean release(final AllocationRef ref) {
        return directory.release(ref);
    }

    /**
     * The server boundary for one staging batch: spans that are misaligned, outside their allocation or stale are
     * dropped (their allocations reported rejected); the rest are coalesced (when on) or passed in the order sent,
     * then stored as one group.
     */
    public void store(final long storeId, final MemoryRegion source, final List<SpanPiece> sent,
                      final Consumer<StoreResult> done) {
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
        engine.store(storeId, source, shaped, List.copyOf(rejected.values()), done);
    }

    public void load(final long loadId, final List<LoadRange> ranges, final MemoryRegion dest,
                     final Consumer<LoadResult> done) {
        engine.load(loadId, ranges, dest, done);
    }

    public void onIoComplete(final IoCompletion completion) {
        engine.onIoComplete(completion);
    }

    public void drain(final Runnable done) {
        engine.drain(done);
    }

    public void close() {
        engine.close();
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
        if (p.lengthBytes() > engine.l1().pool().capacityBytes()) {
            return RejectReason.LARGER_THAN_L1;
        }
        return null;
    }
}
