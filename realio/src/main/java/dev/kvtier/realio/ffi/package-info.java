/**
 * The system-call layer of realio. {@link dev.kvtier.realio.ffi.Kernel} names every libc function and Linux
 * system call realio uses, each returning a value or a negative errno (never throwing for an operating error);
 * {@link dev.kvtier.realio.ffi.LibcKernel} implements it with {@code java.lang.foreign} downcalls that capture
 * {@code errno}. Tests substitute the interface to make io_uring unavailable or a call fail (STYLE rule 17).
 */
package dev.kvtier.realio.ffi;
