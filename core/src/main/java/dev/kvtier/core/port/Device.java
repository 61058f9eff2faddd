package dev.kvtier.core.port;

/**
 * The L2 device port. {@link #submit} never blocks and never completes synchronously: the runner (simulator event
 * loop or io_uring loop) later hands each {@link IoCompletion} to the core. The core bounds how many I/Os it has
 * submitted at once (the {@code concurrentIos} knob), so a device need not queue without limit.
 */
public interface Device {
    /** Size of the L2 file or block device, in bytes. */
    long capacityBytes();

    /** Starts one I/O. Its completion arrives later through the runner. */
    void submit(IoRequest request);
}
