package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.bench.DiskBenches;
import dev.kvtier.realio.bench.BenchIo;
import dev.kvtier.lab.calibrate.Calibrate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kvtier bench-io}: the io_uring device, the FileChannel device and, when installed, fio on the same file:
 * GB/s and IOPS at 4 KiB, 64 KiB and 1 MiB, depths 1, 16 and 32, read and write, with ratios to fio. A benchmark,
 * not a test: run it on a quiet machine, more than once. The file is claimed as kvtier's scratch file first.
 */
@Command(name = "bench-io", mixinStandardHelpOptions = true,
    description = "Benchmark io_uring against FileChannel and fio on one file (O_DIRECT).")
public final class BenchIoCommand implements Callable<Integer> {
    /** Smallest --size: four of the largest blocks measured. */
    static final long SIZE_BYTES_MIN = 4L << 20;
    /** Largest --size. */
    static final long SIZE_BYTES_MAX = Calibrate.SIZE_BYTES_MAX;
    /** Longest --seconds a cell. */
    static final long SECONDS_MAX = 3600;

    @Option(names = "--device", required = true, paramLabel = "PATH", description = "scratch file or block device "
        + "(absent, empty or a kvtier scratch file unless --force; its contents are lost)")
    Path device;

    @Option(names = "--size", paramLabel = "BYTES", description = "bytes of the file to use (default 2 GiB)")
    long sizeBytes = 2L << 30;

    @Option(names = "--seconds", description = "seconds a cell (default 2)")
    long seconds = 2;

    @Option(names = "--no-fio", description = "do not run fio even when it is installed")
    boolean noFio;

    @Option(names = "--quick", description = "a small subset in about a second (no fio)")
    boolean quick;

    @Option(names = "--rounds", paramLabel = "N", description = "rounds of each cell, kvtier and fio alternating; "
        + "each side's median round is reported (default 3)")
    int rounds = 3;

    @Option(names = "--block", paramLabel = "BYTES", description = "measure only this block size (repeatable; "
        + "whole 4 KiB pages up to 8 MiB)")
    List<Long> blocks = new ArrayList<>();

    @Option(names = "--depth", paramLabel = "N", description = "measure only this depth (repeatable; 1 to 256)")
    List<Integer> depths = new ArrayList<>();

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Mixin
    Invoked invoked = new Invoked();

    @Override
    public Integer call() {
        final String bad = badOptions();
        if (bad != null) {
            System.err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        return DiskBenches.io(new DiskBenches.Scratch(device, forceOptions.force(), invoked.holder()), sizeBytes,
            new BenchIo.Plan(seconds, !noFio, quick, quick ? 1 : rounds, blocks, depths), System.out, System.err);
    }

    private String badOptions() {
        if (sizeBytes < SIZE_BYTES_MIN || sizeBytes > SIZE_BYTES_MAX || sizeBytes % (1 << 20) != 0) {
            return "--size must be a whole number of MiB in [" + SIZE_BYTES_MIN + ", " + SIZE_BYTES_MAX + "] B, got "
                + sizeBytes;
        }
        if (blocks.stream().anyMatch(b -> b < 4096 || b > (8 << 20) || b % 4096 != 0)) {
            return "--block must be whole 4 KiB pages up to 8 MiB, got " + blocks;
        }
        if (depths.stream().anyMatch(d -> d < 1 || d > 256)) {
            return "--depth must be in [1, 256], got " + depths;
        }
        if (rounds < 1 || rounds > 100) {
            return "--rounds must be in [1, 100], got " + rounds;
        }
        if (seconds < 1 || seconds > SECONDS_MAX) {
            return "--seconds must be in [1, " + SECONDS_MAX + "], got " + seconds;
        }
        return null;
    }
}
