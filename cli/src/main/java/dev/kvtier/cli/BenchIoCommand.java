package dev.kvtier.cli;

import dev.kvtier.realio.bench.BenchIo;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kvtier bench-io}: the io_uring device, the FileChannel device and, when installed, fio on the same file:
 * GB/s and IOPS at 4 KiB, 64 KiB and 1 MiB, depths 1, 16 and 32, read and write, with ratios to fio. A benchmark,
 * not a test: run it on a quiet machine, more than once.
 */
@Command(name = "bench-io", mixinStandardHelpOptions = true,
    description = "Benchmark io_uring against FileChannel and fio on one file (O_DIRECT).")
public final class BenchIoCommand implements Callable<Integer> {
    @Option(names = "--device", required = true, paramLabel = "PATH", description = "scratch file or block device")
    Path device;

    @Option(names = "--size", paramLabel = "BYTES", description = "bytes of the file to use (default 2 GiB)")
    long sizeBytes = 2L << 30;

    @Option(names = "--seconds", description = "seconds a cell (default 2)")
    long seconds = 2;

    @Option(names = "--no-fio", description = "do not run fio even when it is installed")
    boolean noFio;

    @Option(names = "--quick", description = "a small subset in about a second (no fio)")
    boolean quick;

    @Override
    public Integer call() {
        return BenchIo.run(device, sizeBytes, seconds, !noFio, quick, System.out) == 0 ? ExitCodes.OK
            : ExitCodes.BAD_INPUT;
    }
}
