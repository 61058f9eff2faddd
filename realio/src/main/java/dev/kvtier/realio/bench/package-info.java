/**
 * Benchmarks on a real disk. {@link dev.kvtier.realio.bench.RecoveryBench} times recovering the crash-safe index from
 * a real index file over O_DIRECT. The I/O benchmark runs the io_uring device, the FileChannel device and, when it is
 * on PATH, fio itself ({@link dev.kvtier.realio.calibrate.FioRunner}), on the same preconditioned file (written whole
 * in the same run, sampled pages read back) with the same block sizes, depths and random offsets pattern, O_DIRECT
 * throughout, and prints one table with the ratios of io_uring to fio and to the FileChannel device, and the
 * project's targets met or missed.
 */
package dev.kvtier.realio.bench;
