package dev.kvtier.realio.device;

import dev.kvtier.core.port.Device;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.memory.NativeRegion;

/**
 * A Device that one loop thread drives by polling. {@link #submit} (from the port) and {@link #submitBlock} only
 * queue; {@link #flush} hands the queued batch to the device (one system call for io_uring);
 * {@link #poll} hands ready completions to a sink without blocking; {@link #await} blocks until a completion is
 * ready or a timeout passes. Every method is called from the thread that opened the device.
 *
 * <p>Limits: at most {@link #depth} operations are at the device at once; at most {@link #maxRequests} are
 * accepted and not yet completed (more is a bug of the caller: the core bounds its own I/Os). Every file offset,
 * length and memory address is a multiple of 4096 (O_DIRECT); an unaligned one is rejected with an exception
 * naming it.
 */
public interface PolledDevice extends Device, AutoCloseable {

    /** "io_uring" or "filechannel", for reports. */
    String kind();

    /** Operations at the device at once. */
    int depth();

    /** Requests accepted and not yet completed, at most. */
    int maxRequests();

    /** Requests accepted and not yet handed to a sink. */
    int outstanding();

    /**
     * Queues one single-buffer operation without building an IoRequest (the allocation-free path for tools).
     * A FLUSH ignores the buffer arguments (pass null and zeros).
     */
    void submitBlock(long ioId, IoOp op, long fileOffset, NativeRegion region, long regionOffset, long lengthBytes);

    /** Hands queued submissions to the device; returns how many operations it accepted. */
    int flush();

    /** Hands up to {@code max} completed requests to {@code sink}, without blocking; returns how many. */
    int poll(CompletionSink sink, int max);

    /** Flushes, then blocks until at least one completion is ready or {@code timeoutNs} passes. */
    void await(long timeoutNs);

    /** Releases the device. Requests still outstanding are abandoned (a bug unless the run is failing). */
    @Override
    void close();
}
