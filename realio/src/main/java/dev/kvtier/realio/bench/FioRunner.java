package dev.kvtier.realio.bench;

import dev.kvtier.core.port.IoOp;
import dev.kvtier.realio.calibrate.Measurement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs fio for one cell (random reads or writes of one block size at one depth, O_DIRECT, ioengine io_uring, one
 * job, time based) on an existing file and reads bandwidth and IOPS from its JSON output.
 */
final class FioRunner {
    private static final Pattern BW = Pattern.compile("\"bw_bytes\"\\s*:\\s*(\\d+)");
    private static final Pattern IOPS = Pattern.compile("\"iops\"\\s*:\\s*([0-9.]+)");
    private static final Pattern LAT = Pattern.compile("\"lat_ns\"\\s*:\\s*\\{[^}]*?\"mean\"\\s*:\\s*([0-9.]+)");

    private FioRunner() {
    }

    /** True when {@code fio --version} runs. */
    static boolean available() {
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

    /** One cell, or empty (with the reason on stderr) when fio fails. */
    static Optional<Measurement> run(final Path file, final long fileBytes, final IoOp op, final long block,
                                     final int depth, final long seconds) {
        final List<String> cmd = List.of("fio", "--name=kvtier", "--filename=" + file, "--size=" + fileBytes,
            "--direct=1", "--ioengine=io_uring", "--rw=" + (op == IoOp.READ ? "randread" : "randwrite"),
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

    /** Reads the {@code read} or {@code write} section of fio's JSON. */
    static Measurement parse(final String json, final IoOp op, final long block, final int depth) {
        final String section = "\"" + op.name().toLowerCase(Locale.ROOT) + "\" : {";
        final int at = json.indexOf(section);
        if (at < 0) {
            throw new IllegalArgumentException("no " + section + " in fio output");
        }
        final String rest = json.substring(at);
        final Matcher bw = BW.matcher(rest);
        final Matcher iops = IOPS.matcher(rest);
        final Matcher lat = LAT.matcher(rest);
        if (!bw.find() || !iops.find()) {
            throw new IllegalArgumentException("no bw_bytes/iops after " + section + " in fio output");
        }
        final long meanLatNs = lat.find() ? (long) Double.parseDouble(lat.group(1)) : 0;
        final long ios = (long) Double.parseDouble(iops.group(1));
        return new Measurement(op, block, depth, Long.parseLong(bw.group(1)), ios, meanLatNs, ios, 0);
    }
}
