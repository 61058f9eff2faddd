package dev.kvtier.realio.device;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.RegionResolver;
import dev.kvtier.realio.memory.NativeRegion;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What both real devices ({@link IoUringDevice}, {@link FileChannelDevice}) check, in one place: the device size at
 * open; the O_DIRECT rules on every request (file offset, length and memory address multiples of 4096, the range
 * inside the device, the buffer inside its region); the memory the device is paired with, which resolves each
 * region of a port request ({@link RegionResolver}); the one thread that may use the device; and its life cycle
 * (open until closed, and close acting once). A violation is a bug of the caller: an exception that names the value.
 */
final class DeviceGuard {
    /** O_DIRECT alignment of file offsets, lengths and memory addresses. */
    static final long ALIGN = 4096;

    private final String name;
    private final Path path;
    private final long capacityBytes;
    private final RegionResolver<NativeRegion> memory;
    private final Thread owner;
    private boolean closed;

    /**
     * A guard for a device just opened on the calling thread, which becomes the only one allowed to use it.
     *
     * @param name   the device as messages name it ("io_uring device")
     * @param memory the memory whose regions the device moves bytes of
     */
    DeviceGuard(final String name, final Path path, final long capacityBytes,
                final RegionResolver<NativeRegion> memory) {
        this.name = name;
        this.path = path;
        this.capacityBytes = capacityBytes;
        this.memory = Objects.requireNonNull(memory, "memory");
        this.owner = Thread.currentThread();
    }

    /** Refuses a device size that is not a positive multiple of 4096 (checked before anything is opened). */
    static void checkSize(final long sizeBytes) {
        if (sizeBytes <= 0 || sizeBytes % ALIGN != 0) {
            throw new IllegalArgumentException("device size must be a positive multiple of 4096, got " + sizeBytes);
        }
    }

    /** Refuses use from another thread than the one that opened the device, and use after close. */
    void checkUsable() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException(name + " used from " + Thread.currentThread().getName()
                + "; it belongs to " + owner.getName());
        }
        if (closed) {
            throw new IllegalStateException(name + " " + path + " is closed");
        }
    }

    /** Marks the device closed; true only the first time, so the caller releases what it holds once. */
    boolean close() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    /** Checks the file range of a READ or WRITE: aligned offset and length, and inside the device. */
    void checkRange(final long fileOffset, final long lengthBytes) {
        checkAligned("file offset", fileOffset);
        checkAligned("length", lengthBytes);
        if (lengthBytes <= 0 || fileOffset < 0 || fileOffset + lengthBytes > capacityBytes) {
            throw new IllegalArgumentException("I/O [" + fileOffset + ", +" + lengthBytes + ") is outside the "
                + capacityBytes + " B device " + path);
        }
    }

    /** Checks one buffer: inside its region, at an aligned address. */
    static void checkBuffer(final NativeRegion region, final long regionOffset, final long lengthBytes) {
        if (regionOffset < 0 || regionOffset + lengthBytes > region.sizeBytes()) {
            throw new IllegalArgumentException("buffer [" + regionOffset + ", +" + lengthBytes + ") is outside "
                + region);
        }
        checkAligned("memory address", region.address(regionOffset));
    }

    /**
     * Checks a READ or WRITE of the port: its file range, then each segment's region (resolved through the paired
     * memory) and address.
     */
    void checkRequest(final IoRequest request) {
        checkRange(request.fileOffset(), request.lengthBytes());
        final List<IoSegment> segments = request.segments();
        for (int i = 0; i < segments.size(); i++) {
            final IoSegment s = segments.get(i);
            checkBuffer(region(s), s.regionOffset(), s.lengthBytes());
        }
    }

    /** The segment's region as native memory; refused when it is not from the paired memory. */
    NativeRegion region(final IoSegment segment) {
        return memory.resolve(segment.region());
    }

    /** Refuses a value that is not a multiple of 4096, naming it in decimal and hex. */
    static void checkAligned(final String what, final long value) {
        if ((value & (ALIGN - 1)) != 0) {
            throw new IllegalArgumentException("O_DIRECT needs 4096 alignment: " + what + " " + value + " (0x"
                + Long.toHexString(value) + ") is not a multiple of 4096");
        }
    }
}
