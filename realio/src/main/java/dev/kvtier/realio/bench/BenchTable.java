package dev.kvtier.realio.bench;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.calibrate.Measurement;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Prints BenchIo's rows as a table, then the three targets, each met or missed, with its figures. */
final class BenchTable {
    private BenchTable() {}

    static void print(final List<BenchIo.Row> rows, final PrintStream out) {
        out.println(String.format(Locale.ROOT, "%-5s %7s %5s | %8s %8s | %8s %8s | %8s %8s | %7s %7s | %7s",
            "op", "block", "depth", "uring", "uring", "fchan", "fchan", "fio", "fio", "u/fio", "u/fio", "u/fchan"));
        out.println(String.format(Locale.ROOT, "%-5s %7s %5s | %8s %8s | %8s %8s | %8s %8s | %7s %7s | %7s",
            "", "", "", "GB/s", "kIOPS", "GB/s", "kIOPS", "GB/s", "kIOPS", "bw", "iops", "bw"));
        for (final BenchIo.Row r : rows) {
            final Optional<Measurement> f = r.fio();
            out.println(
                String.format(Locale.ROOT, "%-5s %7s %5d | %8.3f %8.1f | %8.3f %8.1f | %8s %8s | %7s %7s | %7.2f",
                    r.op().name().toLowerCase(Locale.ROOT), size(r.block()), r.depth(), r.uring().gbPerSec(),
                    r.uring().iops() / 1e3, r.fileChannel().gbPerSec(), r.fileChannel().iops() / 1e3,
                    f.map(m -> String.format(Locale.ROOT, "%.3f", m.gbPerSec())).orElse("-"),
                    f.map(m -> String.format(Locale.ROOT, "%.1f", m.iops() / 1e3)).orElse("-"),
                    f.map(m -> ratio(r.uring().bytesPerSec(), m.bytesPerSec())).orElse("-"),
                    f.map(m -> ratio(r.uring().iops(), m.iops())).orElse("-"),
                    r.uring().bytesPerSec() / (double) Math.max(1, r.fileChannel().bytesPerSec())));
        }
        for (final IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            target(rows, out, op, 1024 * 1024, 16, "bandwidth >= 0.90 x fio", true, 0.90);
            target(rows, out, op, 4096, 32, "IOPS >= 0.80 x fio", false, 0.80);
            fileChannelTarget(rows, out, op);
        }
    }

    private static void target(final List<BenchIo.Row> rows, final PrintStream out, final IoOp op, final long block,
                               final int depth, final String what, final boolean bandwidth, final double goal) {
        for (final BenchIo.Row r : rows) {
            if (r.op() == op && r.block() == block && r.depth() == depth && r.fio().isPresent()) {
                final Measurement f = r.fio().get();
                final double ratio = bandwidth ? r.uring().bytesPerSec() / (double) Math.max(1, f.bytesPerSec())
                    : r.uring().iops() / (double) Math.max(1, f.iops());
                out.println(String.format(Locale.ROOT, "target %-5s %s depth %d %s: %.2f %s",
                    op.name().toLowerCase(Locale.ROOT), size(block), depth, what, ratio, ratio >= goal ? "MET"
                        : "MISSED"));
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
