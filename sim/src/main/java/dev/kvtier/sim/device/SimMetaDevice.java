package dev.kvtier.sim.device;

import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.Entropy;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.Scheduler;
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
 * {@link SimDevice}), and a full disk ({@link FaultPlan#metaFullAfterWrites}): once that many writes were accepted,
 * every write submitted before {@code untilNs} completes, after the usual time, with {@code -ENOSPC} and writes
 * nothing. No EIO, spike, corruption or misdirect is injected here, so the device draws nothing from a fault
 * stream and needs none. What it shares with {@link SimDevice} (timing, scheduling, the cache, crash, counters) is
 * {@link SimDeviceState}.
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
    private long acceptedWrites;
    private long injectedMetaFull;

    /** A fault-free metadata device. */
    public SimMetaDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                         final Clock submitClock, final Consumer<IoCompletion> target, final Memory memory) {
        this(profile, capacityBytes, loop, submitClock, target, memory, FaultPlan.NONE);
    }

    /**
     * @param submitClock the time at which submissions happen (the simulated server thread's clock)
     * @param target      receives each completion (the composition root routes it through the server thread)
     * @param memory      moves bytes between the device and regions
     * @param faults      slowdown, full disk, write cache; its other kinds are not injected here
     */
    public SimMetaDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                         final Clock submitClock, final Consumer<IoCompletion> target, final Memory memory,
                         final FaultPlan faults) {
        if (capacityBytes <= 0 || capacityBytes > MAX_CAPACITY_BYTES || capacityBytes % WriteCache.PAGE_BYTES != 0) {
            throw new IllegalArgumentException("metadata device capacity must be a positive multiple of 4096 up to "
                + MAX_CAPACITY_BYTES + " B, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
        this.memory = memory;
        this.faults = faults;
        this.disk = new byte[(int) capacityBytes];
        this.durable = faults.writeCacheEnabled() ? new byte[(int) capacityBytes] : disk;
        this.io = new SimDeviceState<>("metadata I/O", profile, capacityBytes, loop, submitClock, target,
            faults.writeCacheEnabled(), new WriteCache.Image<>() {
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
        final long seq = io.submitWrite(request.fileOffset(), request.lengthBytes(), () -> content(request));
        io.at(done, () -> completeWrite(request, seq));
    }

    /** The write's bytes as memory holds them now. */
    private byte[] content(final IoRequest r) {
        final byte[] c = new byte[(int) r.lengthBytes()];
        int at = 0;
        for (final IoSegment s : r.segments()) {
            memory.read(s.region(), s.regionOffset(), c, at, (int) s.lengthBytes());
            at += (int) s.lengthBytes();
        }
        return c;
    }

    private void completeWrite(final IoRequest r, final long seq) {
        final byte[] c = content(r);
        System.arraycopy(c, 0, disk, (int) r.fileOffset(), c.length);
        io.completeWrite(r, seq, c);
    }

    private void completeRead(final IoRequest r) {
        int file = (int) r.fileOffset();
        for (final IoSegment s : r.segments()) {
            memory.write(s.region(), s.regionOffset(), disk, file, (int) s.lengthBytes());
            file += (int) s.lengthBytes();
        }
        io.completeRead(r);
    }

    /** Power loss at the current instant, as {@link SimDevice#crash}: pending writes drawn from {@code entropy}. */
    public CrashOutcome crash(final Entropy entropy) {
        return io.crash(entropy);
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

    /** Writes answered ENOSPC by the full-disk fault. */
    public long injectedMetaFull() {
        return injectedMetaFull;
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
