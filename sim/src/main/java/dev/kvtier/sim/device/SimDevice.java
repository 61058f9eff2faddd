package dev.kvtier.sim.device;

import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.Entropy;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.RegionResolver;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import dev.kvtier.sim.memory.RunMap;
import dev.kvtier.sim.memory.RunSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The simulated L2 device ({@link DeviceProfile} says the service model). An I/O submitted at time t (the server
 * thread's clock, so host cost before the submit counts) takes the channel that frees first, holds it for its
 * latency, then for its transfer on the shared data path; it completes when the transfer ends. Completion order
 * follows completion time (then submission order). Data moves at completion: the disk's provenance map takes the
 * written ranges, or the read lands in memory, so a slice reused before its write completed would be caught.
 *
 * <p>Faults ({@link FaultPlan}) are decided at submission from the seeded fault stream, in submission order: a
 * spike, then EIO, then for a write silent corruption of one page, a misdirect and a short count. A draw happens
 * only for a fault kind whose rate is not zero, so adding kinds leaves the draws of older plans, and their runs,
 * unchanged. With the
 * plan's volatile write cache on, the device keeps a visible image ({@link #disk}) and a durable one
 * ({@link #durable}) as {@link WriteCache} describes; off, they are one map and nothing else changes. A
 * {@link #crash} works either way (with the cache off only in-flight writes are at risk). What it shares with
 * {@link SimMetaDevice} (timing, scheduling, the cache, crash, counters) is {@link SimDeviceState}.
 *
 * <p>It is paired with the simulated memory whose regions it moves provenance to and from, and resolves each
 * segment's region through it ({@link RegionResolver}).
 */
public final class SimDevice implements Device {
    private final DeviceProfile profile;
    private final long capacityBytes;
    private final RegionResolver<ProvRegion> memory;
    private final RunMap disk = new RunMap();
    private final RunMap durable;
    private final SimDeviceState<RunSnapshot> io;
    /** Where a write's content is put together before the write cache keeps a snapshot of it (reused). */
    private final RunMap contentScratch = new RunMap();
    private final FaultPlan faults;
    private final Entropy faultStream;
    private final List<FileRange> corrupted = new ArrayList<>();
    private final List<MisdirectedWrite> misdirected = new ArrayList<>();
    private long injectedErrors;
    private long injectedSpikes;
    private long injectedCorruptions;
    private long injectedMisdirects;
    private long injectedShortWrites;

    /**
     * Where a write's data goes: its actual offset, the content offset of a corrupted page (or -1), and how many of
     * its leading bytes land (its length, or fewer for a short write).
     */
    private record Fate(long fileOffset, long corruptAt, long corruptTag, long written) {}

    /**
     * @param submitClock the time at which submissions happen (the simulated server thread's clock)
     * @param target      receives each completion (the composition root routes it through the server thread)
     * @param memory      the simulated memory whose regions this device moves provenance to and from
     */
    public SimDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                     final Clock submitClock, final Consumer<IoCompletion> target,
                     final RegionResolver<ProvRegion> memory) {
        this(profile, capacityBytes, loop, submitClock, target, memory, FaultPlan.NONE, null);
    }

    /**
     * A device that injects {@code faults}, drawing every fault decision from {@code faultStream} (seeded), in
     * submission order.
     */
    public SimDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                     final Clock submitClock, final Consumer<IoCompletion> target,
                     final RegionResolver<ProvRegion> memory, final FaultPlan faults, final Entropy faultStream) {
        this(profile, capacityBytes, loop, submitClock, target, memory, faults, faultStream, new DiskCache(profile));
    }

    /** As the constructor above, on a disk whose write-back cache {@code diskCache} it shares with another device. */
    public SimDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                     final Clock submitClock, final Consumer<IoCompletion> target,
                     final RegionResolver<ProvRegion> memory, final FaultPlan faults, final Entropy faultStream,
                     final DiskCache diskCache) {
        if (faults.windowed() && faultStream == null) {
            throw new IllegalArgumentException("a fault plan needs a seeded fault stream");
        }
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("device capacity must be positive, got " + capacityBytes);
        }
        this.faults = faults;
        this.faultStream = faultStream;
        this.profile = profile;
        this.capacityBytes = capacityBytes;
        this.memory = Objects.requireNonNull(memory, "memory");
        this.durable = faults.writeCacheEnabled() ? disk.sibling() : disk;
        this.io = new SimDeviceState<>("I/O", profile, capacityBytes, loop, submitClock, target,
            faults.writeCacheEnabled(), diskCache, new WriteCache.Image<>() {
                @Override
                public void persist(final RunSnapshot content, final long fileOffset, final long from,
                                    final long length) {
                    durable.copyFrom(content, from, fileOffset + from, length);
                }

                @Override
                public void persistPieces(final RunSnapshot content, final long fileOffset, final long[] pieces,
                                          final int count) {
                    durable.copyPieces(content, 0, fileOffset, pieces, count);
                }

                @Override
                public void revertToDurable() {
                    if (durable != disk) {
                        disk.copyAllFrom(durable, capacityBytes);
                    }
                }
            });
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public void submit(final IoRequest request) {
        final long length = request.lengthBytes();
        final long t = io.accept(request);
        final List<IoSegment> segments = request.segments();
        for (int i = 0; i < segments.size(); i++) { // by index: no iterator per I/O
            memory.resolve(segments.get(i).region()); // a region of another memory is refused now, not at completion
        }
        final boolean faulty = faults.activeAt(t);
        final long spike = faulty && draw(faults.spikesPerMillion()) ? faults.spikeNs() : 0;
        final long done = io.book(t, request.op(), length, faulty ? faults.slowdown() : 1, spike);
        final boolean fail = faulty && request.op() != IoOp.FLUSH && draw(request.op() == IoOp.READ
            ? faults.readErrorsPerMillion() : faults.writeErrorsPerMillion());
        if (spike > 0) {
            injectedSpikes++;
        }
        if (fail) {
            injectedErrors++;
            io.failAt(done, request.ioId(), IoCompletion.EIO);
            return;
        }
        switch (request.op()) {
            case READ -> io.at(done, () -> completeRead(request));
            case FLUSH -> io.flushAt(done, request);
            case WRITE -> {
                final Fate fate = fate(request, faulty);
                final long seq = io.submitWrite(fate.fileOffset(), fate.written(),
                    () -> content(request, fate).snapshot(0, fate.written()));
                io.at(done, () -> completeWrite(request, fate, seq));
            }
        }
    }

    /** Draws a write's silent corruption, its misdirect, then a short count (only for kinds with a rate). */
    private Fate fate(final IoRequest request, final boolean faulty) {
        final long length = request.lengthBytes();
        long corruptAt = -1;
        long corruptTag = 0;
        if (faulty && draw(faults.corruptionsPerMillion())) {
            corruptAt = (long) faultStream.nextInt((int) (length / WriteCache.PAGE_BYTES)) * WriteCache.PAGE_BYTES;
            corruptTag = Long.MIN_VALUE | ++injectedCorruptions;
        }
        long fileOffset = request.fileOffset();
        if (faulty && draw(faults.misdirectsPerMillion())) {
            final long elsewhere = misdirectTarget(fileOffset, length);
            if (elsewhere >= 0) {
                injectedMisdirects++;
                misdirected.add(new MisdirectedWrite(request.ioId(), fileOffset, elsewhere, length));
                fileOffset = elsewhere;
            }
        }
        if (corruptAt >= 0) {
            corrupted.add(new FileRange(fileOffset + corruptAt, WriteCache.PAGE_BYTES));
        }
        long written = length;
        final long pages = length / WriteCache.PAGE_BYTES;
        if (faulty && draw(faults.shortWritesPerMillion()) && pages > 1) {
            written = (1L + faultStream.nextInt((int) Math.min(Integer.MAX_VALUE, pages - 1))) * WriteCache.PAGE_BYTES;
            injectedShortWrites++;
        }
        return new Fate(fileOffset, corruptAt, corruptTag, written);
    }

    /**
     * A 4096-aligned offset, uniform among those where the write fits inside the device and does not overlap its
     * intended range; -1 when there is none (no draw then).
     */
    private long misdirectTarget(final long intended, final long length) {
        final long page = WriteCache.PAGE_BYTES;
        final long lengthPages = length / page;
        final long lastIndex = (capacityBytes - length) / page;
        final long intendedIndex = intended / page;
        final long lo = Math.max(0, intendedIndex - lengthPages + 1);
        final long hi = Math.min(lastIndex, intendedIndex + lengthPages - 1);
        final long excluded = hi - lo + 1;
        final long candidates = lastIndex + 1 - excluded;
        if (candidates <= 0) {
            return -1;
        }
        long k = candidates <= Integer.MAX_VALUE ? faultStream.nextInt((int) candidates)
            : Math.floorMod(faultStream.nextLong(), candidates);
        if (k >= lo) {
            k += excluded;
        }
        return k * page;
    }

    /** True with probability {@code perMillion} / 1,000,000, from the fault stream. */
    private boolean draw(final int perMillion) {
        return perMillion > 0 && faultStream.nextInt(FaultPlan.MILLION) < perMillion;
    }

    /**
     * The write's data as memory holds it now (from offset 0), with its corrupted page if it has one, in the reused
     * {@link #contentScratch} (valid until the next call).
     */
    private RunMap content(final IoRequest r, final Fate fate) {
        final RunMap c = contentScratch;
        c.clear(0, Long.MAX_VALUE); // what an earlier write left past this one's end
        long at = 0;
        for (final IoSegment s : r.segments()) {
            c.copyFrom(memory.resolve(s.region()).runs(), s.regionOffset(), at, s.lengthBytes());
            at += s.lengthBytes();
        }
        if (fate.corruptAt() >= 0) {
            c.put(fate.corruptAt(), WriteCache.PAGE_BYTES, fate.corruptTag(), 0);
        }
        return c;
    }

    private void completeWrite(final IoRequest r, final Fate fate, final long seq) {
        if (io.cacheEnabled() || fate.corruptAt() >= 0 || fate.written() < r.lengthBytes()) {
            final RunMap c = content(r, fate);
            disk.copyFrom(c, 0, fate.fileOffset(), fate.written());
            io.completeWrite(r, seq, io.cacheEnabled() ? c.snapshot(0, fate.written()) : null, fate.written());
        } else {
            long file = fate.fileOffset();
            for (final IoSegment s : r.segments()) {
                disk.copyFrom(memory.resolve(s.region()).runs(), s.regionOffset(), file, s.lengthBytes());
                file += s.lengthBytes();
            }
            io.completeWrite(r, seq, null);
        }
    }

    private void completeRead(final IoRequest r) {
        long file = r.fileOffset();
        for (final IoSegment s : r.segments()) {
            memory.resolve(s.region()).runs().copyFrom(disk, file, s.regionOffset(), s.lengthBytes());
            file += s.lengthBytes();
        }
        io.completeRead(r);
    }

    /**
     * Power loss at the current instant ({@link WriteCache} says what happens to pending writes, drawing from
     * {@code entropy}): the visible image becomes the durable one, every I/O in flight is forgotten (a completion
     * of one that still runs is ignored), and the channels and data path restart idle. The device then accepts new
     * I/O as a fresh one over the same medium.
     */
    public CrashOutcome crash(final Entropy entropy) {
        return io.crash(entropy);
    }

    /**
     * After the run: gives the images' block storage to the thread's reserve ({@link RunMap#recycle}) for the next
     * run in this JVM; both images are empty afterwards, so call it only once nothing reads them any more.
     */
    public void recycle() {
        RunMap.recycle(disk, durable);
    }

    /**
     * Turns seeded reordering on: each completion is delivered after an extra delay drawn from {@code stream}, so I/Os
     * complete out of submission order ({@link SimDeviceState} says how). Call it before the first submission.
     */
    public void reorder(final Entropy stream) {
        io.reorder(stream);
    }

    /** Completions delivered while an I/O submitted before them was still in flight (0 without reordering). */
    public long reorderedCompletions() {
        return io.overtakes();
    }

    /** I/Os failed with EIO by the fault plan. */
    public long injectedErrors() {
        return injectedErrors;
    }

    /** I/Os given a latency spike by the fault plan. */
    public long injectedSpikes() {
        return injectedSpikes;
    }

    /** Writes given one silently corrupted page by the fault plan. */
    public long injectedCorruptions() {
        return injectedCorruptions;
    }

    /** Writes sent to a wrong offset by the fault plan. */
    public long injectedMisdirects() {
        return injectedMisdirects;
    }

    /** Writes completed short (fewer bytes than asked) by the fault plan. */
    public long injectedShortWrites() {
        return injectedShortWrites;
    }

    /** Crashes so far. */
    public long crashes() {
        return io.crashes();
    }

    /**
     * Every page given corrupt content, at its actual file offset, in submission order (recorded when injected, at
     * submission: a crash before completion may keep it from landing).
     */
    public List<FileRange> corruptedRanges() {
        return List.copyOf(corrupted);
    }

    /** Every misdirected write, intended and actual range, in submission order (recorded at submission). */
    public List<MisdirectedWrite> misdirectedRanges() {
        return List.copyOf(misdirected);
    }

    /** Whether a silent corruption or a misdirected write (either its intended or its actual range) hit [from, to). */
    public boolean faultedOver(final long from, final long to) {
        for (final FileRange r : corrupted) {
            if (r.offset() < to && from < r.offset() + r.lengthBytes()) {
                return true;
            }
        }
        for (final MisdirectedWrite m : misdirected) {
            if ((m.intendedOffset() < to && from < m.intendedOffset() + m.lengthBytes())
                || (m.actualOffset() < to && from < m.actualOffset() + m.lengthBytes())) {
                return true;
            }
        }
        return false;
    }

    /** The disk's provenance as reads see it (what each L2 byte holds). */
    public RunMap disk() {
        return disk;
    }

    /** What survives a crash now: the same map as {@link #disk} unless the volatile write cache is on. */
    public RunMap durable() {
        return durable;
    }

    /** Writes completed but not yet covered by a completed FLUSH (always 0 with the write cache off). */
    public int unflushedWrites() {
        return io.unflushedWrites();
    }

    public DeviceProfile profile() {
        return profile;
    }

    public long reads() {
        return io.reads();
    }

    public long writes() {
        return io.writes();
    }

    public long flushes() {
        return io.flushes();
    }

    public long bytesRead() {
        return io.bytesRead();
    }

    public long bytesWritten() {
        return io.bytesWritten();
    }
}
