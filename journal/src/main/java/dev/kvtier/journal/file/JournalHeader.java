package dev.kvtier.journal.file;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The first record of a journal: what run it is. {@code knobs} are the configuration values by name, sorted so the
 * header has one encoding; {@code configDigest} identifies the whole configuration; {@code codeVersion} is the git
 * commit (or another build id) the caller passes in; {@code mode} is {@code "virtual"} or {@code "real"}.
 */
public record JournalHeader(int formatVersion, String scenario, long seed, SortedMap<String, String> knobs,
                            String configDigest, String codeVersion, String mode) {

    /** Mode of a run in simulated time. */
    public static final String VIRTUAL = "virtual";
    /** Mode of a run on a wall clock against a real disk. */
    public static final String REAL = "real";

    public JournalHeader {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(configDigest, "configDigest");
        Objects.requireNonNull(codeVersion, "codeVersion");
        Objects.requireNonNull(mode, "mode");
        if (formatVersion < 1) {
            throw new IllegalArgumentException("formatVersion " + formatVersion + " < 1");
        }
        if (!mode.equals(VIRTUAL) && !mode.equals(REAL)) {
            throw new IllegalArgumentException("mode '" + mode + "' is neither virtual nor real");
        }
        final TreeMap<String, String> copy = new TreeMap<>();
        for (final Map.Entry<String, String> knob : knobs.entrySet()) {
            copy.put(Objects.requireNonNull(knob.getKey(), "knob name"), Objects.requireNonNull(knob.getValue(),
                "value of knob " + knob.getKey()));
        }
        if (copy.size() > ExcerptLayout.KNOBS_MAX) {
            throw new IllegalArgumentException(copy.size() + " knobs > " + ExcerptLayout.KNOBS_MAX);
        }
        knobs = Collections.unmodifiableSortedMap(copy);
    }

    /** A header of the current format version. */
    public static JournalHeader of(final String scenario, final long seed, final Map<String, String> knobs,
                                   final String configDigest, final String codeVersion, final String mode) {
        return new JournalHeader(ExcerptLayout.FORMAT_VERSION, scenario, seed, new TreeMap<>(knobs), configDigest,
            codeVersion, mode);
    }
}
