package dev.kvtier.realio.bench;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.calibrate.Measurement;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Prints BenchIo's rows as a table (per I/O path GB/s, kIOPS and microseconds of CPU per I/O; fio like kvtier and fio
 * without registration), then the targets, each met or missed, with its figures.
 */
final class BenchTable {
    /** io_uring's IOPS at 4 KiB over like-for-like fio's, at least. */
    static final double IOPS_GOAL = 0.95;
    /** io_uring's bandwidth at 1 MiB depth 16 over like-for-like fio's, at least. */
    static final double BANDWIDTH_GOAL = 0.90;

    private BenchTable() {}

    static void print(final List<BenchIo.Row> rows, final PrintStream out) {
        out.println(String.format(Locale.ROOT, "%-5s %5s %5s | %7s %7s %6s | %7s %7s | %7s %7s %6s | %7s %6s | %5s %5s"
            + " | %6s", "op", "block", "depth", "uring", "uring", "uring", "fchan", "fchan", "fio", "fio", "fio",
            "fio-pl", "fio-pl", "u/fio", "u/fio", "u/fch"));
        out.println(String.format(Locale.ROOT, "%-5s %5s %5s | %7s %7s %6s | %7s %7s | %7s %7s %6s | %7s %6s | %5s %5s"
            + " | %6s", "", "", "", "GB/s", "kIOPS", "us/IO", "GB/s", "kIOPS", "GB/s", "kIOPS", "us/IO", "kIOPS",
            "us/IO", "bw", "iops", "bw"));
        for (final BenchIo.Row r : rows) {
            final Optional<Measurement> f = r.fio();
            final Optional<Measurement> p = r.fioPlain();
            out.println(String.format(Locale.ROOT, "%-5s %5s %5d | %7.3f %7.1f %6s | %7.3f %7.1f | %7s %7s %6s | %7s "
                + "%6s | %5s %5s | %6.2f", r.op().name().toLowerCase(Locale.ROOT), size(r.block()), r.depth(),
                r.uring().gbPerSec(), r.uring().iops() / 1e3, cpu(r.uring()), r.fileChannel().gbPerSec(),
                r.fileChannel().iops() / 1e3,
                f.map(m -> String.format(Locale.ROOT, "%.3f", m.gbPerSec())).orElse("-"),
                f.map(m -> String.format(Locale.ROOT, "%.1f", m.iops() / 1e3)).orElse("-"),
                f.map(BenchTable::cpu).orElse("-"),
                p.map(m -> String.format(Locale.ROOT, "%.1f", m.iops() / 1e3)).orElse("-"),
                p.map(BenchTable::cpu).orElse("-"),
                f.map(m -> ratio(r.uring().bytesPerSec(), m.bytesPerSec())).orElse("-"),
                f.map(m -> ratio(r.uring().iops(), m.iops())).orElse("-"),
                r.uring().bytesPerSec() / (double) Math.max(1, r.fileChannel().bytesPerSec())));
        }
        for (final IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            target(rows, out, op, 1024 * 1024, 16, "bandwidth >= 0.90 x fio", true, BANDWIDTH_GOAL);
            for (final int depth : List.of(1, 16, 32)) {
                target(rows, out, op, 4096, depth, "IOPS >= 0.95 x fio", false, IOPS_GOAL);
            }
            fileChannelTarget(rows, out, op);
        }
    }

    /** Microseconds of CPU per I/O, or {@code -}. */
    static String cpu(final Measurement m) {
        return m.cpuNsPerIo() < 0 ? "-" : String.format(Locale.ROOT, "%.2f", m.cpuNsPerIo() / 1e3);
    }

    private static void target(final List<BenchIo.Row> rows, final PrintStream out, final IoOp op, final long block,
                               final int depth, final String what, final boolean bandwidth, final double goal) {
        for (final BenchIo.Row r : rows) {
            if (r.op() == op && r.block() == block && r.depth() == depth && r.fio().isPresent()) {
                final Measurement f = r.fio().get();
                final double ratio = bandwidth ? r.uring().bytesPerSec() / (double) Math.max(1, f.bytesPerSec())
                    : r.uring().iops() / (double) Math.max(1, f.iops());
                out.println(String.format(Locale.ROOT, "target %-5s %s depth %d %s (like for like): %.2f %s; CPU per"
                    + " I/O kvtier %s us, fio %s us", op.name().toLowerCase(Locale.ROOT), size(block), depth, what,
                    ratio, ratio >= goal ? "MET" : "MISSED", cpu(r.uring()), cpu(f)));
            }
        }
    }

    private static void fileChannelTarget(final List<BenchIo.Row> rows, final PrintStream out, final IoOp op) {
        for (final BenchIo.Row r : rows) {
            if (r.op() == op && r.block() == 64 * 1024 && r.depth() == 16) {
                final double ratio = r.uring().bytesPerSec() / (double) Math.max(1, r.fileChannel().bytesPerSec());
                out.println(String.format(Locale.ROOT, "target %-5s 64K depth 16 bandwidth >= 1.3 x FileChannel: "
                    + "%.2f %s", op.name().toLowerCase(Locale.ROOT), ratio, ratio >= 1.3 ? "MET" : "MISSED"));
            }
        }
    }

    private static String ratio(final long a, final long b) {
        return String.format(Locale.ROOT, "%.2f", a / (double) Math.max(1, b));
    }

    private static String size(final long block) {
        return block >= 1024 * 1024 ? block / (1024 * 1024) + "M" : block / 1024 + "K";
    }
}
