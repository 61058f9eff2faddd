package dev.kvtier.realio.memory;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a real run's byte work cost, as it paid it: the bytes and the wall time of every copy, slot checksum, fill of
 * a slot with its key's pattern (stamp) and check of loaded bytes (verify) that went through one {@link NativeMemory}.
 * The simulator charges these at the host cost profile's bandwidths; set side by side with the profile, these
 * figures show which bandwidth the profile overstates (the bytes a real run touches are spread over gigabytes and
 * not touched for seconds, where a calibration's best-of measures a small area it just touched).
 *
 * <p>A checksum counts as "after a copy" when its bytes lie in what the memory's last copy wrote, as a store's
 * checksum of a span it just copied into L1 does; the others (a read-back's) count apart, as the profile has two
 * checksum bandwidths.
 *
 * @param copy           every copy
 * @param checksum       checksums not right after a copy into their bytes
 * @param checksumCopied checksums of bytes the last copy wrote
 * @param stamp          fills with a key's pattern
 * @param verify         checks of bytes against a key's pattern
 */
public record ByteWork(Tally copy, Tally checksum, Tally checksumCopied, Tally stamp, Tally verify) {
    /**
     * Bytes, wall time and operations of one kind of work.
     *
     * @param bytes      bytes
     * @param ns         wall time
     * @param operations operations
     */
    public record Tally(long bytes, long ns, long operations) {
        /** Nothing yet. */
        public static final Tally NONE = new Tally(0, 0, 0);

        public Tally {
            if (bytes < 0 || ns < 0 || operations < 0) {
                throw new IllegalArgumentException("a tally is not negative: " + bytes + " B, " + ns + " ns, "
                    + operations + " operations");
            }
        }

        /** Bytes per second, or 0 with nothing timed. */
        public long bytesPerSec() {
            return ns == 0 ? 0 : Math.round(bytes * 1e9 / ns);
        }

        /** This and {@code other} together. */
        public Tally plus(final Tally other) {
            return new Tally(bytes + other.bytes, ns + other.ns, operations + other.operations);
        }

        /** What was added since {@code earlier}. */
        public Tally minus(final Tally earlier) {
            return new Tally(bytes - earlier.bytes, ns - earlier.ns, operations - earlier.operations);
        }

        /** For example {@code 4.50 GiB in 0.67 s (7.18 GB/s)}, or {@code none}. */
        public String describe() {
            return operations == 0 ? "none" : String.format(Locale.ROOT, "%.2f GiB in %.2f s (%.2f GB/s)",
                bytes / (double) (1L << 30), ns / 1e9, bytesPerSec() / 1e9);
        }
    }

    /** This work and {@code other} together (two runs' work as one). */
    public ByteWork plus(final ByteWork other) {
        return new ByteWork(copy.plus(other.copy), checksum.plus(other.checksum),
            checksumCopied.plus(other.checksumCopied), stamp.plus(other.stamp), verify.plus(other.verify));
    }

    /** What was added since {@code earlier} (a snapshot of the same memory). */
    public ByteWork minus(final ByteWork earlier) {
        return new ByteWork(copy.minus(earlier.copy), checksum.minus(earlier.checksum),
            checksumCopied.minus(earlier.checksumCopied), stamp.minus(earlier.stamp), verify.minus(earlier.verify));
    }

    /**
     * Each kind by the name reports give it ({@code copy}, {@code checksum}, {@code checksumCopied}, {@code stamp},
     * {@code verify}), in that order.
     */
    public Map<String, Tally> byName() {
        final Map<String, Tally> m = new LinkedHashMap<>();
        m.put("copy", copy);
        m.put("checksum", checksum);
        m.put("checksumCopied", checksumCopied);
        m.put("stamp", stamp);
        m.put("verify", verify);
        return m;
    }

    /** Total wall time of the byte work. */
    public long totalNs() {
        return copy.ns() + checksum.ns() + checksumCopied.ns() + stamp.ns() + verify.ns();
    }

    /** One line: each kind's bytes, time and bandwidth. */
    public String describe() {
        return "copies " + copy.describe() + "; checksums " + checksum.describe() + ", right after a copy "
            + checksumCopied.describe() + "; fills " + stamp.describe() + "; checks " + verify.describe();
    }
}
