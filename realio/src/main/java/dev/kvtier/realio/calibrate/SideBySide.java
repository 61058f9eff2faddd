package dev.kvtier.realio.calibrate;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.host.ProcStat;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * kvtier's meter and fio on the same preconditioned file, cell by cell, alternating (kvtier, fio, kvtier, fio, ...)
 * so that the drift of a shared disk falls on both, repeated, with the median, minimum and maximum of each. fio's
 * figure is compared with kvtier's meter on buffers of the same kind as fio's (huge pages when fio could have them,
 * 4 KiB pages otherwise); the figure the profile takes is kvtier's on huge pages (the memory a real run's L1 pool,
 * staging and engine regions are), measured in the same rounds.
 */
public final class SideBySide {
    private SideBySide() {}

    /**
     * Repeated figures in bytes per second: their median (the lower middle of an even count), minimum and maximum.
     *
     * @param values every figure, in the order measured
     */
    public record Spread(List<Long> values) {
        public Spread {
            values = List.copyOf(values);
            if (values.isEmpty()) {
                throw new IllegalArgumentException("a spread needs at least one figure");
            }
        }

        public long median() {
            return values.stream().sorted().toList().get((values.size() - 1) / 2);
        }

        public long min() {
            return values.stream().mapToLong(Long::longValue).min().orElseThrow();
        }

        public long max() {
            return values.stream().mapToLong(Long::longValue).max().orElseThrow();
        }

        /** For example {@code 2.41 GB/s (2.30 .. 2.52, 3 runs)}. */
        public String describe() {
            return String.format(Locale.ROOT, "%.2f GB/s (%.2f .. %.2f, %d run(s))", median() / 1e9, min() / 1e9,
                max() / 1e9, values.size());
        }
    }

    /**
     * One cell compared.
     *
     * @param cell       the cell
     * @param fioBuffers the kind of buffers fio used, and kvtier's meter with it
     * @param kvtier     kvtier's meter on buffers of that kind
     * @param fio        fio
     * @param profile    kvtier's meter on huge pages (the figure a profile takes); equal to {@code kvtier} when fio
     *                   used huge pages too
     */
    public record Comparison(Cell cell, FioRunner.Buffers fioBuffers, Spread kvtier, Spread fio, Spread profile,
                             Witness kvtierSeen, Witness profileSeen) {
        public Comparison {
            Objects.requireNonNull(cell, "cell");
            Objects.requireNonNull(fioBuffers, "fioBuffers");
            Objects.requireNonNull(kvtier, "kvtier");
            Objects.requireNonNull(fio, "fio");
            Objects.requireNonNull(profile, "profile");
            Objects.requireNonNull(kvtierSeen, "kvtierSeen");
            Objects.requireNonNull(profileSeen, "profileSeen");
        }

        /** A comparison without the block device's counters. */
        public Comparison(final Cell cell, final FioRunner.Buffers fioBuffers, final Spread kvtier, final Spread fio,
                          final Spread profile) {
            this(cell, fioBuffers, kvtier, fio, profile, Witness.NONE, Witness.NONE);
        }

        /** kvtier's median over fio's, like with like. */
        public double ratio() {
            return kvtier.median() / (double) Math.max(1, fio.median());
        }

        /** Whether the profile's figure was itself compared with fio (fio had huge pages). */
        public boolean profileCompared() {
            return fioBuffers == FioRunner.Buffers.HUGE_PAGES;
        }
    }

    /**
     * What the block device's own counters saw while a meter ran, one figure a round: the bytes of the cell's kind
     * (read or written) the device moved between just before and just after the timed run, over that wall time. The
     * counters are the whole device's, so other processes' I/O can only add to them: a figure at least {@link #SHARE}
     * of the meter's own says that the bytes the meter counted really reached (or came from) the device in its time,
     * which no sparse file, host page cache or miscounted completion could fake.
     *
     * @param deviceBps per round, in bytes per second; empty when the counters could not be read
     */
    public record Witness(List<Long> deviceBps) {
        /** The share of a meter's figure the device must have seen for the figure to be confirmed. */
        public static final double SHARE = 0.97;
        /** No counters. */
        public static final Witness NONE = new Witness(List.of());

        public Witness {
            deviceBps = List.copyOf(deviceBps);
        }

        /** Whether the device saw at least {@link #SHARE} of each round of {@code claimed}. */
        public boolean confirms(final Spread claimed) {
            if (deviceBps.isEmpty() || deviceBps.size() != claimed.values().size()) {
                return false;
            }
            for (int i = 0; i < deviceBps.size(); i++) {
                if (deviceBps.get(i) < SHARE * claimed.values().get(i)) {
                    return false;
                }
            }
            return true;
        }

        /** For example {@code the device counted 2.41 GB/s (2.30 .. 2.52)}, or {@code no device counters}. */
        public String describe() {
            return deviceBps.isEmpty() ? "no device counters" : "the device counted " + new Spread(deviceBps)
                .describe();
        }
    }

    /**
     * Where and how long to compare, and how to settle the disk before each timed run.
     *
     * @param file    the preconditioned file both measure
     * @param repeats rounds
     * @param cellNs  how long each timed run lasts
     * @param settle  run before every timed run, kvtier's and fio's alike, untimed: a FLUSH, so that each starts from
     *                a disk that holds no write of the run before it in its volatile cache (on a virtual disk whose
     *                host caches writes, the run after a write run would otherwise pay for its predecessor's
     *                write-back); returns how long it took, in nanoseconds
     */
    record Target(DeviceFile file, int repeats, long cellNs, LongSupplier settle) {
        Target {
            if (repeats < 1 || cellNs < 1_000_000L) {
                throw new IllegalArgumentException("compare at least once for at least 1 ms: " + repeats + " x "
                    + cellNs + " ns");
            }
            Objects.requireNonNull(settle, "settle");
        }
    }

    /**
     * Compares {@code cell}: {@code repeats} rounds of kvtier's meter on fio's kind of buffers ({@code likeFio}),
     * fio, and kvtier's meter on huge pages ({@code profileMeter}, skipped when it is {@code likeFio}); kvtier first
     * in even rounds, fio first in odd ones (A B, B A, ...), so neither side always runs on what the other left.
     * Empty when a fio run failed.
     */
    static Optional<Comparison> compare(final Cell cell, final IoMeter likeFio, final IoMeter profileMeter,
                                        final FioRunner.Buffers fioBuffers, final Target t, final long seed,
                                        final PrintStream log) {
        return compare(cell, likeFio, profileMeter, fioBuffers, FioRunner.Registration.REGISTERED, t, seed, log);
    }

    /** As above, with fio registering what kvtier's {@code likeFio} meter registers ({@code registration}). */
    static Optional<Comparison> compare(final Cell cell, final IoMeter likeFio, final IoMeter profileMeter,
                                        final FioRunner.Buffers fioBuffers, final FioRunner.Registration registration,
                                        final Target t, final long seed, final PrintStream log) {
        final List<Long> kvtier = new ArrayList<>();
        final List<Long> fio = new ArrayList<>();
        final List<Long> profile = new ArrayList<>();
        final List<Long> kvtierSeen = new ArrayList<>();
        final List<Long> profileSeen = new ArrayList<>();
        for (int round = 0; round < t.repeats(); round++) {
            final int r = round;
            final long[] settledNs = new long[3];
            final boolean fioFirst = round % 2 == 1;
            if (fioFirst && !runFio(cell, fioBuffers, registration, t, fio, settledNs)) {
                return Optional.empty();
            }
            settledNs[0] = t.settle().getAsLong();
            kvtier.add(seen(cell, t, kvtierSeen, () -> likeFio.measure(cell.op(), cell.blockBytes(), cell.depth(),
                t.cellNs(), seed + r)));
            if (!fioFirst && !runFio(cell, fioBuffers, registration, t, fio, settledNs)) {
                return Optional.empty();
            }
            if (profileMeter != likeFio) {
                settledNs[2] = t.settle().getAsLong();
                profile.add(seen(cell, t, profileSeen, () -> profileMeter.measure(cell.op(), cell.blockBytes(),
                    cell.depth(), t.cellNs(), seed + 100 + r)));
            }
            log.println(String.format(Locale.ROOT, "side by side %s round %d%s: kvtier %.3f GB/s, fio %.3f GB/s%s"
                + " (settling FLUSH before each: %.0f, %.0f%s ms)", cell, round + 1, fioFirst ? " (fio first)" : "",
                kvtier.getLast() / 1e9, fio.getLast() / 1e9, profile.isEmpty() ? ""
                    : String.format(Locale.ROOT, ", kvtier on huge pages %.3f GB/s", profile.getLast() / 1e9),
                settledNs[0] / 1e6, settledNs[1] / 1e6, profile.isEmpty() ? ""
                    : String.format(Locale.ROOT, ", %.0f", settledNs[2] / 1e6)));
        }
        final Spread k = new Spread(kvtier);
        final Witness ks = witness(kvtierSeen, kvtier.size());
        return Optional.of(new Comparison(cell, fioBuffers, k, new Spread(fio), profile.isEmpty() ? k
            : new Spread(profile), ks, profile.isEmpty() ? ks : witness(profileSeen, profile.size())));
    }

    /**
     * Runs one timed meter run between two readings of the block device's counters; its figure, and the device's
     * (bytes of the cell's kind over the run's wall time) joins {@code seen} when the counters could be read.
     */
    static long seen(final Cell cell, final Target t, final List<Long> seen, final Supplier<Measurement> run) {
        final int kind = cell.op() == IoOp.READ ? 0 : 1;
        final long[] before = ProcStat.blockBytes(t.file().path());
        final long startNs = System.nanoTime();
        final Measurement m = run.get();
        final long elapsedNs = Math.max(1, System.nanoTime() - startNs);
        final long[] after = ProcStat.blockBytes(t.file().path());
        if (before.length == 2 && after.length == 2) {
            seen.add((long) ((after[kind] - before[kind]) * 1e9 / elapsedNs));
        }
        return m.bytesPerSec();
    }

    private static Witness witness(final List<Long> seen, final int rounds) {
        return seen.size() == rounds ? new Witness(seen) : Witness.NONE;
    }

    /** Settles the disk and runs fio once; its figure joins {@code fio}; false when fio failed. */
    private static boolean runFio(final Cell cell, final FioRunner.Buffers fioBuffers,
                                  final FioRunner.Registration registration, final Target t, final List<Long> fio,
                                  final long[] settledNs) {
        settledNs[1] = t.settle().getAsLong();
        final Optional<Measurement> f = FioRunner.run(t.file(), cell.op(), cell.blockBytes(), cell.depth(),
            t.cellNs() / 1_000_000L, false, fioBuffers, registration);
        f.ifPresent(m -> fio.add(m.bytesPerSec()));
        return f.isPresent();
    }
}
