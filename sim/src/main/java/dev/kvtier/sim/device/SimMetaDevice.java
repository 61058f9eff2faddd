package dev.kvtier.sim.device;

import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.Entropy;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.harness.profile.DeviceProfile;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The simulated metadata device, where the core keeps its crash-safe index (log and checkpoints). Unlike
 * {@link SimDevice} it holds real bytes: a heap array of its capacity, moved to and from memory regions through
 * the {@link Memory} port's {@code read} and {@code write}, so metadata survives (or does not survive) a simulated
 * crash exactly as bytes would. Timing is {@link SimDevice}'s ({@link IoTimeline}, the same {@link DeviceProfile});
 * completions run on the loop at their completion time, never synchronously.
 *
 * <p>Faults: the plan's slowdown, its volatile write cache and crash ({@link WriteCache}, shared with
 * {@link SimDevice}; what a crash does to pages that are not durable is {@link FaultPlan#indexCrashPages}), a full
 * disk ({@link FaultPlan#metaFullAfterWrites}): once that many writes were accepted, every write submitted before
 * {@code untilNs} completes, after the usual time, with {@code -ENOSPC} and writes nothing; and flipped bytes
 * ({@link FaultPlan#indexFlipsPerMillion}): an accepted write submitted before {@code untilNs} lands, as drawn, with
 * one byte inverted on the media (the visible and the durable image alike), though it completes OK. No EIO, spike,
 * corruption or misdirect is injected here. The device draws from its own fault stream only for flips and for a
 * crash that tears or garbles every page, so a plan without them draws nothing. What it shares with
 * {@link SimDevice} (timing, scheduling, the cache, crash, counters) is {@link SimDeviceState}.
 */
public final class SimMetaDevice implements Device {
    /** Linux errno for a full device. */
    public static final long ENOSPC = 28;
    /** Largest capacity: metadata is small, and the image is a heap array. */
    public static final long MAX_CAPACITY_BYTES = 256L << 20;

    private final long capacityBytes;
    private final Memory memory;
    private final FaultPlan faults;
    private final byte[] disk;
    private final byte[] durable;
    private final SimDeviceState<byte[]> io;
    private final Entropy faultStream;
    private long acceptedWrites;
    private long injectedMetaFull;
    private long injectedFlips;
    private long injectedLostWrites;

    /** A fault-free metadata device. */
    public SimMetaDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                         final Clock submitClock, final Consumer<IoCompletion> target, final Memory memory) {
        this(profile, capacityBytes, loop, submitClock, target, memory, FaultPlan.NONE, null);
    }

    /** A metadata device without flipped bytes (it needs no fault stream). */
    public SimMetaDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                         final Clock submitClock, final Consumer<IoCompletion> target, final Memory memory,
                         final FaultPlan faults) {
        this(profile, capacityBytes, loop, submitClock, target, memory, faults, null);
    }

    /**
     * @param submitClock the time at which submissions happen (the simulated server thread's clock)
     * @param target      receives each completion (the composition root routes it through the server thread)
     * @param memory      moves bytes between the device and regions
     * @param faults      slowdown, full disk, flipped bytes, write cache; its other kinds are not injected here
     * @param faultStream draws which writes flip a byte, and which byte; required when the plan flips bytes
     */
    public SimMetaDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                         final Clock submitClock, final Consumer<IoCompletion> target, final Memory memory,
                         final FaultPlan faults, final Entropy faultStream) {
        this(profile, capacityBytes, loop, submitClock, target, memory, faults, faultStream, new DiskCache(profile));
    }

    /** As the constructor above, on a disk whose write-back cache {@code diskCache} it shares with another device. */
    public SimMetaDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                         final Clock submitClock, final Consumer<IoCompletion> target, final Memory memory,
                         final FaultPlan faults, final Entropy faultStream,
                         final DiskCache diskCache) {
        if (capacityBytes <= 0 || capacityBytes > MAX_CAPACITY_BYTES || capacityBytes % WriteCache.PAGE_BYTES != 0) {
            throw new IllegalArgumentException("metadata device capacity must be a positive multiple of 4096 up to "
                + MAX_CAPACITY_BYTES + " B, got " + capacityBytes);
        }
        if (faults.indexFlipsPerMillion() > 0 && faultStream == null) {
            throw new IllegalArgumentException("a plan that flips index bytes needs a fault stream");
        }
        this.capacityBytes = capacityBytes;
        this.memory = memory;
        this.faults = faults;
        this.faultStream = faultStream;
        this.disk = new byte[(int) capacityBytes];
        this.durable = faults.writeCacheEnabled() ? new byte[(int) capacityBytes] : disk;
        this.io = new SimDeviceState<>("metadata I/O", profile, capacityBytes, loop, submitClock, target,
            faults.writeCacheEnabled(), diskCache, new WriteCache.Image<>() {
                @Override
                public void persist(final byte[] content, final long fileOffset, final long from, final long length) {
                    System.arraycopy(content, (int) from, durable, (int) (fileOffset + from), (int) length);
                }

                @Override
                public void revertToDurable() {
                    if (durable != disk) {
                        System.arraycopy(durable, 0, disk, 0, disk.length);
                    }
                }

                @Override
                public boolean garble(final byte[] content, final long fileOffset, final long from, final long length,
                                      final Entropy entropy) {
                    return garbleInto(content, (int) (fileOffset + from), (int) from, (int) length, entropy);
                }
            });
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public void submit(final IoRequest request) {
        final long t = io.accept(request);
        final boolean faulty = faults.activeAt(t);
        final long done = io.book(t, request.op(), request.lengthBytes(), faulty ? faults.slowdown() : 1, 0);
        switch (request.op()) {
            case READ -> io.at(done, () -> completeRead(request));
            case FLUSH -> io.flushAt(done, request);
            case WRITE -> submitWrite(request, faulty, done);
        }
    }

    private void submitWrite(final IoRequest request, final boolean faulty, final long done) {
        if (faulty && faults.metaFullAfterWrites() > 0 && acceptedWrites >= faults.metaFullAfterWrites()) {
            injectedMetaFull++;
            io.failAt(done, request.ioId(), ENOSPC);
            return;
        }
        acceptedWrites++;
        final int flipAt = faulty && faults.indexFlipsPerMillion() > 0
            && faultStream.nextInt(FaultPlan.MILLION) < faults.indexFlipsPerMillion()
                ? faultStream.nextInt((int) request.lengthBytes()) : -1;
        final boolean lost = faulty && faults.indexLostWritesPerMillion() > 0
            && faultStream.nextInt(FaultPlan.MILLION) < faults.indexLostWritesPerMillion();
        final long seq = io.submitWrite(request.fileOffset(), request.lengthBytes(), () -> content(request));
        io.at(done, () -> {
            if (lost) {
                completeLost(request, seq);
            } else {
                completeWrite(request, seq, flipAt);
            }
        });
    }

    /**
     * A lost write: reads see its bytes, but what the cache makes durable for it (at a FLUSH or a crash) is the
     * range's media content as of now; with the cache off nothing keeps it, and the range keeps its old bytes.
     */
    private void completeLost(final IoRequest r, final long seq) {
        injectedLostWrites++;
        final int at = (int) r.fileOffset();
        final int length = (int) r.lengthBytes();
        if (!io.cacheEnabled()) {
            io.completeWrite(r, seq, null);
            return;
        }
        final byte[] media = Arrays.copyOfRange(durable, at, at + length);
        readInto(r, disk, at);
        io.completeWrite(r, seq, media);
    }

    /** Lands {@code [from, +length)} of content at {@code at} durably, one differing byte inverted; false if none. */
    private boolean garbleInto(final byte[] content, final int at, final int from, final int length,
                               final Entropy entropy) {
        int differing = 0;
        for (int i = 0; i < length; i++) {
            differing += content[from + i] != durable[at + i] ? 1 : 0;
        }
        if (differing == 0) {
            return false;
        }
        int pick = entropy.nextInt(differing);
        int victim = -1;
        for (int i = 0; i < length && victim < 0; i++) {
            if (content[from + i] != durable[at + i] && pick-- == 0) {
                victim = i;
            }
        }
        System.arraycopy(content, from, durable, at, length);
        durable[at + victim] = (byte) ~durable[at + victim];
        return true;
    }

    /** The write's bytes as memory holds them now. */
    private byte[] content(final IoRequest r) {
        final byte[] c = new byte[(int) r.lengthBytes()];
        readInto(r, c, 0);
        return c;
    }

    /** Copies the write's bytes as memory holds them now into {@code into} from {@code at} on. */
    private void readInto(final IoRequest r, final byte[] into, final int at) {
        int to = at;
        for (final IoSegment s : r.segments()) {
            memory.read(s.region(), s.regionOffset(), into, to, (int) s.lengthBytes());
            to += (int) s.lengthBytes();
        }
    }

    private void completeWrite(final IoRequest r, final long seq, final int flipAt) {
        // The write's bytes land in the image itself; with the write cache on, the cache keeps a copy of its own
        // until a FLUSH makes it durable (without it, nothing keeps them).
        final int at = (int) r.fileOffset();
        readInto(r, disk, at);
        if (flipAt >= 0) {
            injectedFlips++;
            disk[at + flipAt] = (byte) ~disk[at + flipAt];
        }
        io.completeWrite(r, seq, io.cacheEnabled() ? Arrays.copyOfRange(disk, at, at + (int) r.lengthBytes()) : null);
    }

    private void completeRead(final IoRequest r) {
        int file = (int) r.fileOffset();
        for (final IoSegment s : r.segments()) {
            memory.write(s.region(), s.regionOffset(), disk, file, (int) s.lengthBytes());
            file += (int) s.lengthBytes();
        }
        io.completeRead(r);
    }

    /**
     * Power loss at the current instant, as {@link SimDevice#crash}: pending writes drawn from {@code entropy}, each
     * page treated as the plan's {@link FaultPlan#indexCrashPages} says.
     */
    public CrashOutcome crash(final Entropy entropy) {
        return io.crash(entropy, faults.indexCrashPages());
    }

    /** A copy of {@code [offset, offset + length)} as reads see it. */
    public byte[] bytes(final long offset, final int length) {
        Objects.checkFromIndexSize(offset, length, capacityBytes);
        return Arrays.copyOfRange(disk, (int) offset, (int) offset + length);
    }

    /** A copy of {@code [offset, offset + length)} as it would survive a crash now. */
    public byte[] durableBytes(final long offset, final int length) {
        Objects.checkFromIndexSize(offset, length, capacityBytes);
        return Arrays.copyOfRange(durable, (int) offset, (int) offset + length);
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

    /** Writes that completed OK but never reached the media (the lost-write fault). */
    public long injectedLostWrites() {
        return injectedLostWrites;
    }

    /** Writes answered ENOSPC by the full-disk fault. */
    public long injectedMetaFull() {
        return injectedMetaFull;
    }

    /** Writes that landed with a flipped byte. */
    public long injectedFlips() {
        return injectedFlips;
    }

    /** Writes accepted (not refused as ENOSPC), including any lost to a crash. */
    public long acceptedWrites() {
        return acceptedWrites;
    }

    /** Writes completed but not yet covered by a completed FLUSH (always 0 with the write cache off). */
    public int unflushedWrites() {
        return io.unflushedWrites();
    }

    public long crashes() {
        return io.crashes();
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
}
