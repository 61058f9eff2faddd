/**
 * Benchmarks of the real backend on a claimed scratch file: io_uring against FileChannel and fio, and the crash-safe
 * index's recovery time. Benchmarks, not tests: they print figures and fail only when a measurement cannot be made.
 */
package dev.kvtier.lab.bench;
