package dev.kvtier.realio.files;

import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;

/**
 * What a claimed path holds, read under its lock before anything is written: its size and its first bytes (enough
 * for kvtier's header, every signature {@link Signatures} knows, and the zero check of a block device).
 *
 * @param sizeBytes the file's or block device's size
 * @param leading   its first bytes ({@code length} of them are valid)
 * @param length    how many were read
 */
// A value made and read within one claim decision; never compared, hashed or shared, so an array component is safe.
@SuppressWarnings("ArrayRecordComponent")
record Contents(long sizeBytes, byte[] leading, int length) {
    /** Bytes read from the start: a block device whose first MiB is zeros counts as empty. */
    static final int LEADING_BYTES = 1 << 20;

    static Contents read(final Kernel kernel, final int fd, final Claim.Request request) throws ClaimRefused {
        final long size = kernel.sizeOf(fd);
        if (size < 0) {
            throw new ClaimRefused("cannot size " + request.name() + " (lseek): " + Errno.ofResult(size));
        }
        final NativeIo.Read read = NativeIo.readUpTo(kernel, fd, (int) Math.min(size, LEADING_BYTES), 0);
        if (read.failure() != null) {
            throw new ClaimRefused("cannot read the start of " + request.name() + ": " + read.failure());
        }
        return new Contents(size, read.bytes(), read.length());
    }

    /** Who holds a locked file, as its header says; for the message that refuses a second run. */
    static String holderOf(final Kernel kernel, final int fd) {
        final NativeIo.Read read = NativeIo.readUpTo(kernel, fd, HeaderLayout.BYTES, 0);
        if (read.failure() == null && FileHeader.decode(read.bytes(), read.length()) instanceof FileHeader.Intact i
            && alive(i.header().holder())) {
            return i.header().holder().describe();
        }
        return "another process (it holds a lock on the file)";
    }

    /**
     * False when the header names a process of this host that is gone: the holder that has the lock now has not
     * written its own header yet, and the one named is an earlier run's.
     */
    private static boolean alive(final Holder holder) {
        final Holder self = Holder.current("");
        return !self.host().equals(holder.host())
            || ProcessHandle.of(holder.pid()).map(ProcessHandle::isAlive).orElse(false);
    }
}
