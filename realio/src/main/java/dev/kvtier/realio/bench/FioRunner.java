package dev.kvtier.realio.bench;

import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.realio.calibrate.Measurement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs fio for one cell (random reads or writes of one block size at one depth, O_DIRECT, ioengine io_uring, one
 * job, time based) on an existing file and reads bandwidth and IOPS from its JSON output.
 */
public final class FioRunner {
    private static final JsonMapper JSON = new JsonMapper();

    private FioRunner() {}

    /** True when {@code fio --version} runs. */
    public static boolean available() {
        try {
            final Process p = new ProcessBuilder("fio", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (final IOException e) {
            return false;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** One random-offset cell, or empty (with the reason on stderr) when fio fails. */
    static Optional<Measurement> run(final Path file, final long fileBytes, final IoOp op, final long block,
                                     final int depth, final long seconds) {
        return run(DeviceFile.whole(file, fileBytes), op, block, depth, seconds, false);
    }

    /** One cell, sequential or at random offsets, or empty (with the reason on stderr) when fio fails. */
    public static Optional<Measurement> run(final Path file, final long fileBytes, final IoOp op, final long block,
                                            final int depth, final long seconds, final boolean sequential) {
        return run(DeviceFile.whole(file, fileBytes), op, block, depth, seconds, sequential);
    }

    /**
     * One cell on the bytes {@code device} describes (fio's {@code --offset} is its base offset, so kvtier's header
     * before it is never written), or empty (with the reason on stderr) when fio fails.
     */
    public static Optional<Measurement> run(final DeviceFile device, final IoOp op, final long block, final int depth,
                                            final long seconds, final boolean sequential) {
        final String rw = (sequential ? "" : "rand") + (op == IoOp.READ ? "read" : "write");
        final List<String> cmd = List.of("fio", "--name=kvtier", "--filename=" + device.path(),
            "--offset=" + device.baseOffset(), "--size=" + device.sizeBytes(),
            "--direct=1", "--ioengine=io_uring", "--rw=" + rw,
            "--bs=" + block, "--iodepth=" + depth, "--runtime=" + seconds, "--time_based", "--numjobs=1",
            "--norandommap", "--randrepeat=0", "--output-format=json");
        try {
            final Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            final String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(seconds + 60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                System.err.println("fio failed for " + op + " " + block + " B depth " + depth);
                return Optional.empty();
            }
            return Optional.of(parse(json, op, block, depth));
        } catch (final IOException e) {
            System.err.println("fio did not run: " + e.getMessage());
            return Optional.empty();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Reads the {@code read} or {@code write} section of fio's JSON output (jobs[0]). */
    static Measurement parse(final String json, final IoOp op, final long block, final int depth) {
        final JsonNode section = JSON.readTree(json).path("jobs").path(0).path(op.name().toLowerCase(Locale.ROOT));
        if (!section.has("bw_bytes") || !section.has("iops")) {
            throw new IllegalArgumentException("no " + op + " bw_bytes/iops in fio output");
        }
        final long meanLatNs = (long) section.path("lat_ns").path("mean").asDouble(0);
        final long ios = (long) section.get("iops").asDouble();
        return new Measurement(op, block, depth, section.get("bw_bytes").asLong(), ios, meanLatNs, ios, 0);
    }
}
