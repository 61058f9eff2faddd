package dev.kvtier.realio.testkit;

import java.util.ArrayList;
import java.util.List;
import dev.kvtier.realio.ffi.Kernel;
import dev.kvtier.realio.ffi.LibcKernel;
import java.util.function.IntUnaryOperator;

/**
 * The real kernel, except that io_uring_setup and open answer what the test says: {@code setup} maps the setup
 * flags to an errno to fail with (0 = call the real kernel), {@code openErrno} fails every open with that errno.
 */
public final class FailingKernel implements Kernel {
    private final List<Integer> enterFlags = new ArrayList<>();
    private final LibcKernel real = LibcKernel.create();
    private final IntUnaryOperator setup;
    private final int openErrno;
    private int setupCalls;

    public FailingKernel(final IntUnaryOperator setup, final int openErrno) {
        this.setup = setup;
        this.openErrno = openErrno;
    }

    /** The flags of every io_uring_enter call, in order. */
    public List<Integer> enterFlags() {
        return List.copyOf(enterFlags);
    }

    public int setupCalls() {
        return setupCalls;
    }

    /** Reads the flags from the caller's io_uring_params (120 bytes at the address; a restricted reinterpret). */
    @Override
    @SuppressWarnings("restricted")
    public int ioUringSetup(final int entries, final long paramsAddress) {
        setupCalls++;
        final int flags = java.lang.foreign.MemorySegment.ofAddress(paramsAddress).reinterpret(120)
            .get(java.lang.foreign.ValueLayout.JAVA_INT, 8);
        final int errno = setup.applyAsInt(flags);
        return errno != 0 ? -errno : real.ioUringSetup(entries, paramsAddress);
    }

    @Override
    public int ioUringEnter(final int fd, final int toSubmit, final int minComplete, final int flags,
                            final long argAddress, final long argBytes) {
        enterFlags.add(flags);
        return real.ioUringEnter(fd, toSubmit, minComplete, flags, argAddress, argBytes);
    }

    @Override
    public int ioUringRegister(final int fd, final int opcode, final long argAddress, final int nrArgs) {
        return real.ioUringRegister(fd, opcode, argAddress, nrArgs);
    }

    @Override
    public long mmap(final long lengthBytes, final int prot, final int flags, final int fd, final long offset) {
        return real.mmap(lengthBytes, prot, flags, fd, offset);
    }

    @Override
    public int munmap(final long address, final long lengthBytes) {
        return real.munmap(address, lengthBytes);
    }

    @Override
    public int open(final String path, final int flags, final int mode) {
        return openErrno != 0 ? -openErrno : real.open(path, flags, mode);
    }

    @Override
    public int close(final int fd) {
        return real.close(fd);
    }

    @Override
    public int fallocate(final int fd, final int mode, final long offset, final long lengthBytes) {
        return real.fallocate(fd, mode, offset, lengthBytes);
    }

    @Override
    public int ftruncate(final int fd, final long lengthBytes) {
        return real.ftruncate(fd, lengthBytes);
    }

    @Override
    public long sizeOf(final int fd) {
        return real.sizeOf(fd);
    }

    @Override
    public int flock(final int fd, final int operation) {
        return real.flock(fd, operation);
    }

    @Override
    public long pread(final int fd, final long bufferAddress, final long countBytes, final long offset) {
        return real.pread(fd, bufferAddress, countBytes, offset);
    }

    @Override
    public long pwrite(final int fd, final long bufferAddress, final long countBytes, final long offset) {
        return real.pwrite(fd, bufferAddress, countBytes, offset);
    }

    @Override
    public int fsync(final int fd) {
        return real.fsync(fd);
    }

    @Override
    public int unlink(final String path) {
        return real.unlink(path);
    }
}
