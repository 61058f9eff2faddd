/**
 * kvtier's real-I/O mode: the storage core on a wall clock over a real file or block device. It depends on
 * {@code harness} (what both modes share) and never on {@code sim}.
 *
 * <ul>
 *   <li>{@code ffi}: the libc and Linux system calls realio needs, through the foreign-function API (no JNI), as a
 *       substitutable {@link dev.kvtier.realio.ffi.Kernel} so tests can inject failures below the real code.</li>
 *   <li>{@code uring}: the io_uring binding: descriptor classes for every kernel structure and the ring itself.</li>
 *   <li>{@code memory}: 4096-aligned native memory implementing the core's Memory and Stamping ports.</li>
 *   <li>{@code device}: polled devices (io_uring and the FileChannel fallback) implementing the Device port.</li>
 *   <li>{@code loop}: the wall-clock event loop that drives the core and a polled device on one thread.</li>
 *   <li>{@code calibrate} and {@code bench}: device and host calibration (profiles for the simulator), the
 *       io_uring / FileChannel / fio benchmark and the index recovery benchmark.</li>
 *   <li>{@code run}: the real run's composition root, its two devices and how they are opened.</li>
 * </ul>
 */
package dev.kvtier.realio;
