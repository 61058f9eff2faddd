package dev.kvtier.realio.ffi;

/**
 * Every libc function and Linux system call realio makes. Each returns its value (a descriptor, a count, an
 * address) or {@code -errno}; none throws for an operating error. Addresses are raw {@code long}s so that a test
 * implementation needs no native memory. An instance is used by one thread at a time.
 */
public interface Kernel {
    /** Linux {@code io_uring_setup(entries, params)} (syscall 425): a ring descriptor or -errno. */
    int ioUringSetup(int entries, long paramsAddress);

    /**
     * Linux {@code io_uring_enter(fd, toSubmit, minComplete, flags, arg, argBytes)} (syscall 426): the number of
     * SQEs consumed, or -errno.
     */
    int ioUringEnter(int fd, int toSubmit, int minComplete, int flags, long argAddress, long argBytes);

    /** Linux {@code io_uring_register(fd, opcode, arg, nrArgs)} (syscall 427): 0 (or a count) or -errno. */
    int ioUringRegister(int fd, int opcode, long argAddress, int nrArgs);

    /** libc {@code mmap(NULL, length, prot, flags, fd, offset)}: the mapping's address or -errno. */
    long mmap(long lengthBytes, int prot, int flags, int fd, long offset);

    /** libc {@code munmap(address, length)}: 0 or -errno. */
    int munmap(long address, long lengthBytes);

    /** libc {@code madvise(address, length, advice)}: 0 or -errno (ENOSYS where a kernel layer lacks it). */
    default int madvise(final long address, final long lengthBytes, final int advice) {
        return -38;
    }

    /** libc {@code open(path, flags, mode)}: a file descriptor or -errno. */
    int open(String path, int flags, int mode);

    /** libc {@code close(fd)}: 0 or -errno. */
    int close(int fd);

    /** libc {@code fallocate(fd, mode, offset, length)}: 0 or -errno. */
    int fallocate(int fd, int mode, long offset, long lengthBytes);

    /** libc {@code ftruncate(fd, length)}: 0 or -errno. */
    int ftruncate(int fd, long lengthBytes);

    /** libc {@code lseek(fd, 0, SEEK_END)}: the size of the file or block device, or -errno. */
    long sizeOf(int fd);

    /**
     * libc {@code flock(fd, operation)}: 0 or -errno ({@code EWOULDBLOCK}, which is {@code EAGAIN} on Linux, when
     * {@code LOCK_NB} is set and another open file description holds a conflicting lock).
     */
    int flock(int fd, int operation);

    /** libc {@code pread(fd, buf, count, offset)}: the bytes read (fewer at the end of the file), or -errno. */
    long pread(int fd, long bufferAddress, long countBytes, long offset);

    /** libc {@code pwrite(fd, buf, count, offset)}: the bytes written (possibly fewer than asked), or -errno. */
    long pwrite(int fd, long bufferAddress, long countBytes, long offset);

    /** libc {@code fsync(fd)}: 0 or -errno. */
    int fsync(int fd);

    /** libc {@code unlink(path)}: 0 or -errno. */
    int unlink(String path);

    /**
     * libc {@code kill(pid, signal)}: 0 or -errno (ENOSYS where a kernel layer lacks it). A {@code SIGKILL} sent to
     * this process does not return: the kernel ends it at once, as it would any process killed from outside.
     */
    default int kill(final long pid, final int signal) {
        return -38;
    }
}
