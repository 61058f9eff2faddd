package dev.kvtier.realio.calibrate;

import dev.kvtier.harness.profile.DeviceProfile;
import java.util.Locale;

/**
 * Writes a {@link Calibration} as TOML: its notes as comments, the nine top-level keys of its {@link DeviceProfile}
 * ({@code name}, {@code readLatencyNs}, {@code writeLatencyNs}, {@code flushLatencyNs}, {@code readBytesPerSec},
 * {@code writeBytesPerSec}, {@code parallelism}, {@code drainBytesPerSec}, {@code drainDelayNs}), {@code suspect} (the
 * reasons, when a suspect profile was accepted), then one {@code [[measurement]]} table per cell with {@code op},
 * {@code blockBytes}, {@code depth}, {@code bytesPerSec}, {@code iops}, {@code meanLatencyNs}, and one
 * {@code [[comparison]]} table per cell compared with fio ({@code op}, {@code blockBytes}, {@code depth},
 * {@code fioBuffers}, and the median, min and max of kvtier's, fio's and the profile's bytes per second). A writer
 * only; realio has no TOML library and reads none.
 */
public final class ProfileToml {
    private ProfileToml() {}

    /** The TOML text; {@code comment} (one line, may be empty) goes first as a comment. */
    public static String write(final Calibration calibration, final String comment) {
        final DeviceProfile p = calibration.profile();
        final StringBuilder out = new StringBuilder(256 + 160 * calibration.measurements().size());
        if (!comment.isEmpty()) {
            if (comment.contains("\n")) {
                throw new IllegalArgumentException("the comment is one line");
            }
            out.append("# ").append(comment).append('\n');
        }
        for (final String note : calibration.notes()) {
            out.append("# ").append(note.replace('\n', ' ')).append('\n');
        }
        out.append("name = ").append(string(p.name())).append('\n');
        out.append("readLatencyNs = ").append(p.readLatencyNs()).append('\n');
        out.append("writeLatencyNs = ").append(p.writeLatencyNs()).append('\n');
        out.append("flushLatencyNs = ").append(p.flushLatencyNs()).append('\n');
        out.append("readBytesPerSec = ").append(p.readBytesPerSec()).append('\n');
        out.append("writeBytesPerSec = ").append(p.writeBytesPerSec()).append('\n');
        out.append("parallelism = ").append(p.parallelism()).append('\n');
        out.append("drainBytesPerSec = ").append(p.drainBytesPerSec()).append('\n');
        out.append("drainDelayNs = ").append(p.drainDelayNs()).append('\n');
        if (!calibration.suspect().isEmpty()) {
            out.append("suspect = [");
            for (int i = 0; i < calibration.suspect().size(); i++) {
                out.append(i == 0 ? "" : ", ").append(string(calibration.suspect().get(i)));
            }
            out.append("]\n");
        }
        for (final Measurement m : calibration.measurements()) {
            out.append("\n[[measurement]]\n");
            out.append("op = ").append(string(m.op().name().toLowerCase(Locale.ROOT))).append('\n');
            out.append("blockBytes = ").append(m.blockBytes()).append('\n');
            out.append("depth = ").append(m.depth()).append('\n');
            out.append("bytesPerSec = ").append(m.bytesPerSec()).append('\n');
            out.append("iops = ").append(m.iops()).append('\n');
            out.append("meanLatencyNs = ").append(m.meanLatencyNs()).append('\n');
        }
        for (final SideBySide.Comparison c : calibration.comparisons()) {
            out.append("\n[[comparison]]\n");
            out.append("op = ").append(string(c.cell().op().name().toLowerCase(Locale.ROOT))).append('\n');
            out.append("blockBytes = ").append(c.cell().blockBytes()).append('\n');
            out.append("depth = ").append(c.cell().depth()).append('\n');
            out.append("fioBuffers = ").append(string(c.fioBuffers().name().toLowerCase(Locale.ROOT))).append('\n');
            spread(out, "kvtier", c.kvtier());
            spread(out, "fio", c.fio());
            spread(out, "profile", c.profile());
        }
        return out.toString();
    }

    private static void spread(final StringBuilder out, final String who, final SideBySide.Spread s) {
        out.append(who).append("BytesPerSec = { median = ").append(s.median()).append(", min = ").append(s.min())
            .append(", max = ").append(s.max()).append(", runs = ").append(s.values().size()).append(" }\n");
    }

    /** A TOML basic string: quotes, backslashes and control characters escaped. */
    static String string(final String s) {
        final StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7F) {
                        b.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
