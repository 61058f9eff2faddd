/**
 * Polled devices: the core's Device port for a real file or block device, driven by one loop thread.
 * {@link dev.kvtier.realio.device.PolledDevice} adds to the port what a loop needs (flush the batch of
 * submissions, poll completions without blocking, wait for one). {@link dev.kvtier.realio.device.IoUringDevice}
 * is the real implementation (O_DIRECT, fixed buffers and a registered file);
 * {@link dev.kvtier.realio.device.FileChannelDevice} is the fallback for machines without io_uring. Opening is a
 * value ({@link dev.kvtier.realio.device.OpenResult}): io_uring being unavailable or a file system without
 * O_DIRECT is an operating condition, not a bug. {@link dev.kvtier.realio.device.Devices} chooses.
 *
 * <p>A device is opened with the native memory whose bytes it moves (a {@code RegionResolver}) and resolves each
 * region of a port request through it. What both devices share is in one place each: opening the file with
 * O_DIRECT ({@code DirectFile}), and the alignment, range, owning-thread and close-once checks
 * ({@code DeviceGuard}).
 */
package dev.kvtier.realio.device;
