/**
 * Real memory for the core: {@link dev.kvtier.realio.memory.NativeMemory} implements the Memory and Stamping ports
 * over 4096-aligned native segments from one shared Arena (so device worker threads may touch them), bounded by a
 * byte budget fixed at construction. Its regions are {@link dev.kvtier.realio.memory.NativeRegion}s, which devices
 * read the native address of; the io_uring device registers them as fixed buffers (see
 * {@code IoUringDevice.registerBuffers}). A device is opened with the memory it moves bytes of and gets each region
 * of a port request as a NativeRegion from it ({@code NativeMemory.resolve}); a region of another memory is
 * refused. The memory times its byte work (copies, checksums, fills and checks of slot content) as it does it:
 * {@link dev.kvtier.realio.memory.ByteWork}, what a real run paid for each, which sign-off and calibration compare
 * with and take into the host cost profile.
 */
package dev.kvtier.realio.memory;
