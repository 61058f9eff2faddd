package dev.kvtier.realio.calibrate;

import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.device.DeviceFile;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The calibration's side-by-side check against fio: picks the kind of buffers fio can have (huge pages when enough
 * are reserved, else 4 KiB pages, with kvtier's meter on the same kind), runs {@link SideBySide} on each cell, and
 * says in the calibration's notes what was compared with what.
 */
final class FioCheck {
    private static final long GIB = 1L << 30;

    private FioCheck() {}

    static List<SideBySide.Comparison> compare(final PolledDevice device, final IoMeter meter,
                                               final DeviceCalibration.Plan plan, final List<Cell> cells,
                                               final DeviceCalibration.Checks checks, final DeviceFile file,
                                               final List<String> notes, final PrintStream log) {
        if (!FioRunner.available()) {
            notes.add("fio: not installed (apt-get install fio); the figures were not compared with fio");
            return List.of();
        }
        long bufferBytes = 0;
        for (final Cell c : cells) {
            bufferBytes = Math.max(bufferBytes, c.blockBytes() * c.depth());
        }
        final boolean huge = FioRunner.hugePagesFree(bufferBytes);
        final FioRunner.Buffers kind = huge ? FioRunner.Buffers.HUGE_PAGES : FioRunner.Buffers.SMALL_PAGES;
        final SideBySide.Target target = new SideBySide.Target(file, checks.repeats(), checks.compareNs(),
            meter::flushNs);
        final List<SideBySide.Comparison> out = new ArrayList<>();
        final long smallBytes = Math.max(4096, cells.stream().mapToLong(c -> c.blockBytes() * Math.min(8, c.depth()))
            .max().orElse(4096));
        try (NativeMemory small = new NativeMemory(huge ? 4096 : smallBytes, null)) {
            final IoMeter likeFio = huge ? meter : meter.sibling(small.allocate("fio-like", smallBytes));
            long seed = 0xF10;
            for (final Cell c : cells) {
                final Optional<SideBySide.Comparison> r = SideBySide.compare(c, likeFio, meter, kind,
                    registration(huge, meter), target, seed, log);
                seed += 1000;
                if (r.isEmpty()) {
                    notes.add("fio: failed on " + c + "; not compared");
                } else {
                    out.add(r.get());
                }
            }
        }
        notes.add(describe(kind, checks, bufferBytes, out) + "; kvtier: io_uring, " + (meter.fixedFile()
            ? "registered file" : "unregistered file") + ", "
            + (huge && meter.fixedBuffers() ? "registered buffers"
                : "unregistered buffers")
            + "; fio: " + FioRunner.describe(kind, registration(huge, meter)));
        return out;
    }

    /** fio registers what kvtier's meter on fio's kind of buffers registers: the file, and huge-page buffers. */
    private static FioRunner.Registration registration(final boolean huge, final IoMeter meter) {
        if (!meter.fixedFile()) {
            return FioRunner.Registration.PLAIN;
        }
        return huge && meter.fixedBuffers() ? FioRunner.Registration.REGISTERED : FioRunner.Registration.FILE_ONLY;
    }

    private static String describe(final FioRunner.Buffers kind, final DeviceCalibration.Checks checks,
                                   final long bufferBytes, final List<SideBySide.Comparison> out) {
        final StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "fio side by side on the same "
            + "preconditioned file: %d round(s) of %d ms, kvtier and fio alternating (fio first in every other"
            + " round, an untimed FLUSH before each)", checks.repeats(), checks.compareNs() / 1_000_000));
        if (kind == FioRunner.Buffers.HUGE_PAGES) {
            b.append("; both on huge-page buffers (fio --mem=shmhuge), as a run's memory is");
        } else {
            b.append(String.format(Locale.ROOT, "; no %.2f GiB of huge pages reserved, so fio used 4 KiB-page buffers"
                + " and was compared with kvtier's meter on 4 KiB pages; the profile takes kvtier's figures on huge"
                + " pages (a run's memory), not compared with fio itself (reserve them to compare: echo %d >"
                + " /proc/sys/vm/nr_hugepages)", bufferBytes / (double) GIB, bufferBytes / (2L << 20) + 2));
        }
        for (final SideBySide.Comparison c : out) {
            b.append(String.format(Locale.ROOT, "; %s kvtier %s (%s), fio %s (ratio %.2f)", c.cell(),
                c.kvtier().describe(), c.kvtierSeen().describe(), c.fio().describe(), c.ratio()));
            if (!c.profileCompared()) {
                b.append(String.format(Locale.ROOT, ", kvtier on huge pages %s (%s)", c.profile().describe(),
                    c.profileSeen().describe()));
            }
            if (c.ratio() > 1 + DeviceCalibration.SUSPECT_ABOVE_FIO && c.kvtierSeen().confirms(c.kvtier())) {
                b.append(String.format(Locale.ROOT, "; kvtier above fio by more than %.0f %% there, but the block"
                    + " device's own counters saw every byte kvtier counted in its time: fio fell short in this"
                    + " sitting, the meter is not suspect", 100 * DeviceCalibration.SUSPECT_ABOVE_FIO));
            }
        }
        return b.toString();
    }
}
