package dev.kvtier.property.chain;

import dev.kvtier.core.port.Clock;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the journal of a failing chain: the events the core emitted, with their virtual times, re-emitted into a
 * {@link JournalWriter} in {@code target/failing-journals/<seed>/}. Written once, for the shrunk chain only (the
 * harness records events in memory while it runs, so passing chains cost no disk).
 */
final class FailureJournal {
    /** Where journals of failing chains go, relative to the module. */
    static final Path ROOT = Path.of("target", "failing-journals");

    private FailureJournal() {}

    /** Writes the journal; returns its directory. */
    static Path write(final CoreHarness harness, final String property, final String seed) throws Exception {
        final Path dir = ROOT.resolve(seed.replaceAll("[^0-9A-Za-z_-]", "_")).toAbsolutePath();
        deleteIfPresent(dir);
        final Map<String, String> knobs = new TreeMap<>();
        knobs.put("knobs", harness.knobs.toString());
        knobs.put("config", harness.config.toString());
        final long[] now = {0};
        final Clock clock = () -> now[0];
        final JournalWriter writer = new JournalWriter(dir, JournalHeader.of("property:" + property, seedAsLong(seed),
            knobs, Integer.toHexString(harness.config.hashCode()), codeVersion(), JournalHeader.VIRTUAL), clock);
        try {
            for (final CoreHarness.Recorded r : harness.recorded()) {
                now[0] = r.timeNs();
                writer.emit(r.event());
            }
        } finally {
            writer.close();
        }
        return dir;
    }

    private static long seedAsLong(final String seed) {
        try {
            return Long.parseLong(seed);
        } catch (final NumberFormatException e) {
            return seed.hashCode();
        }
    }

    private static String codeVersion() {
        final String v = System.getenv("KVTIER_COMMIT");
        return v == null ? "working-tree" : v;
    }

    private static void deleteIfPresent(final Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (final Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
