package dev.kvtier.realio.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * {@link Kernel} through {@code java.lang.foreign} downcalls into libc. The three io_uring system calls go
 * through libc's variadic {@code syscall(long, ...)} with every argument passed as a {@code long} (the width
 * libc's wrapper reads them at). {@code errno} is captured by the linker into a per-instance segment, so the
 * value read is the one the call set, whatever the JVM did in between. Each instance owns its capture segment;
 * use one instance per thread.
 */
public final class LibcKernel implements Kernel {
    private static final long SYS_IO_URING_SETUP = 425;
    private static final long SYS_IO_URING_ENTER = 426;
    private static final long SYS_IO_URING_REGISTER = 427;
    private static final int SEEK_END = 2;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    private static final MethodHandle SYSCALL3 = syscall(3);
    private static final MethodHandle SYSCALL4 = syscall(4);
    private static final MethodHandle SYSCALL6 = syscall(6);
    private static final MethodHandle MMAP = libc("mmap", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG,
        JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = libc("munmap", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle MADVISE = libc("madvise", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG,
        JAVA_INT));
    private static final MethodHandle OPEN = libc("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
        JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = libc("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle FALLOCATE = libc("fallocate", FunctionDescriptor.of(JAVA_INT, JAVA_INT,
        JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle FTRUNCATE = libc("ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT,
        JAVA_LONG));
    private static final MethodHandle FLOCK = libc("flock", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle PREAD = libc("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG,
        JAVA_LONG, JAVA_LONG));
    private static final MethodHandle PWRITE = libc("pwrite", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG,
        JAVA_LONG, JAVA_LONG));
    private static final MethodHandle FSYNC = libc("fsync", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle UNLINK = libc("unlink", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle KILL = libc("kill", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle LSEEK = libc("lseek", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG,
        JAVA_INT));

    private final MemorySegment capture;

    private LibcKernel(final MemorySegment capture) {
        this.capture = capture;
    }

    /** A kernel with its own errno capture segment (freed when the instance is unreachable). */
    public static LibcKernel create() {
        return new LibcKernel(Arena.ofAuto().allocate(CAPTURE));
    }

    private static MethodHandle syscall(final int argCount) {
        final MemoryLayout[] args = new MemoryLayout[argCount + 1];
        Arrays.fill(args, JAVA_LONG);
        return libc("syscall", FunctionDescriptor.of(JAVA_LONG, args), Linker.Option.firstVariadicArg(1));
    }

    /**
     * A downcall handle to libc's {@code name} that captures errno, with {@code options} first. The one place this
     * class calls {@link Linker#downcallHandle}, a restricted method (a descriptor that does not match the C
     * prototype can crash the JVM): each descriptor above follows its function's prototype (man 2) for 64-bit
     * Linux, and the JVM runs with native access enabled for the unnamed module.
     */
    @SuppressWarnings("restricted")
    private static MethodHandle libc(final String name, final FunctionDescriptor descriptor,
                                     final Linker.Option... options) {
        final Linker.Option[] all = Arrays.copyOf(options, options.length + 1);
        all[options.length] = ERRNO_OPTION;
        return LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow(name), descriptor, all);
    }

    private long errnoResult() {
        final int errno = (int) ERRNO.get(capture, 0L);
        if (errno <= 0) {
            throw new IllegalStateException("a call failed without setting errno (" + errno + ")");
        }
        return -errno;
    }

    private int checked(final int value) {
        return value < 0 ? (int) errnoResult() : value;
    }

    private long checked(final long value) {
        return value < 0 ? errnoResult() : value;
    }

    @Override
    public int ioUringSetup(final int entries, final long paramsAddress) {
        try {
            return (int) checked((long) SYSCALL3.invokeExact(capture, SYS_IO_URING_SETUP, (long) entries,
                paramsAddress, 0L));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int ioUringEnter(final int fd, final int toSubmit, final int minComplete, final int flags,
                            final long argAddress, final long argBytes) {
        try {
            return (int) checked((long) SYSCALL6.invokeExact(capture, SYS_IO_URING_ENTER, (long) fd,
                (long) toSubmit, (long) minComplete, (long) flags, argAddress, argBytes));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int ioUringRegister(final int fd, final int opcode, final long argAddress, final int nrArgs) {
        try {
            return (int) checked((long) SYSCALL4.invokeExact(capture, SYS_IO_URING_REGISTER, (long) fd,
                (long) opcode, argAddress, (long) nrArgs));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public long mmap(final long lengthBytes, final int prot, final int flags, final int fd, final long offset) {
        try {
            final long address = (long) MMAP.invokeExact(capture, 0L, lengthBytes, prot, flags, fd, offset);
            return address == -1L ? errnoResult() : address;
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int munmap(final long address, final long lengthBytes) {
        try {
            return checked((int) MUNMAP.invokeExact(capture, address, lengthBytes));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int madvise(final long address, final long lengthBytes, final int advice) {
        try {
            return checked((int) MADVISE.invokeExact(capture, address, lengthBytes, advice));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int open(final String path, final int flags, final int mode) {
        try (Arena arena = Arena.ofConfined()) {
            return checked((int) OPEN.invokeExact(capture, arena.allocateFrom(path), flags, mode));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int close(final int fd) {
        try {
            return checked((int) CLOSE.invokeExact(capture, fd));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int fallocate(final int fd, final int mode, final long offset, final long lengthBytes) {
        try {
            return checked((int) FALLOCATE.invokeExact(capture, fd, mode, offset, lengthBytes));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int ftruncate(final int fd, final long lengthBytes) {
        try {
            return checked((int) FTRUNCATE.invokeExact(capture, fd, lengthBytes));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public long sizeOf(final int fd) {
        try {
            return checked((long) LSEEK.invokeExact(capture, fd, 0L, SEEK_END));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int flock(final int fd, final int operation) {
        try {
            return checked((int) FLOCK.invokeExact(capture, fd, operation));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public long pread(final int fd, final long bufferAddress, final long countBytes, final long offset) {
        try {
            return checked((long) PREAD.invokeExact(capture, fd, bufferAddress, countBytes, offset));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public long pwrite(final int fd, final long bufferAddress, final long countBytes, final long offset) {
        try {
            return checked((long) PWRITE.invokeExact(capture, fd, bufferAddress, countBytes, offset));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int fsync(final int fd) {
        try {
            return checked((int) FSYNC.invokeExact(capture, fd));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int unlink(final String path) {
        try (Arena arena = Arena.ofConfined()) {
            return checked((int) UNLINK.invokeExact(capture, arena.allocateFrom(path)));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int kill(final long pid, final int signal) {
        try {
            return checked((int) KILL.invokeExact(capture, Math.toIntExact(pid), signal));
        } catch (final Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(final Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("downcall failed", t);
    }
}
