/**
 * The io_uring binding: no JNI, no liburing. One descriptor class per kernel structure (offset constants, an ASCII
 * layout diagram, a {@code check} method that rebuilds the structure as a {@code MemoryLayout} and compares);
 * {@link dev.kvtier.realio.uring.IoUring} sets a ring up through {@link dev.kvtier.realio.ffi.Kernel}, maps it,
 * and offers SQE preparation, batched submission, completion reaping and buffer and file registration.
 * Head and tail indices are read with acquire and written with release ordering, as the kernel's ring protocol
 * requires. A ring is confined to the thread that created it (it is set up with SINGLE_ISSUER when the kernel
 * allows).
 */
package dev.kvtier.realio.uring;
