package dev.kvtier.journal.replay;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.L2Admission;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.ReplacementKind;
import dev.kvtier.core.config.StagingLayout;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.journal.file.JournalException.Problem;
import java.nio.file.Path;
import java.util.SortedMap;

/**
 * Rebuilds the {@link CoreConfig} a run used from its journal header's knobs ({@code core.<component>} for every
 * component of the record, as {@code kvtier run} prints and records them). A missing or malformed knob makes the
 * journal unreplayable, reported as a one-line {@link JournalException}.
 */
public final class ReplayConfig {
    /** The prefix of the core's knobs in a header. */
    public static final String PREFIX = "core.";

    private ReplayConfig() {}

    /** The configuration recorded in {@code knobs} of the journal at {@code dir}. */
    public static CoreConfig fromKnobs(final Path dir, final SortedMap<String, String> knobs) throws JournalException {
        final Knobs k = new Knobs(dir, knobs);
        try {
            return CoreConfig.builder(k.longOf("slotBytes"))
                .l2Bytes(k.longOf("l2Bytes"))
                .l1Bytes(k.longOf("l1Bytes"))
                .headroomRatio(k.intOf("headroomRatio"))
                .groupedWriteBatchBytes(k.longOf("groupedWriteBatchBytes"))
                .coalesceStoreSpans(k.boolOf("coalesceStoreSpans"))
                .concurrentIos(k.intOf("concurrentIos"))
                .readBatchMax(k.intOf("readBatchMax"))
                .maxReadBytes(k.longOf("maxReadBytes"))
                .stagingBatchBytes(k.longOf("stagingBatchBytes"))
                .stagingPoolBytes(k.longOf("stagingPoolBytes"))
                .replacement(k.enumOf("replacement", ReplacementKind.class))
                .commitMode(k.enumOf("commitMode", CommitMode.class))
                .l2Admission(k.knobs().containsKey(PREFIX + "l2Admission") ? k.enumOf("l2Admission",
                    L2Admission.class) : L2Admission.ALL)
                .stagingLayout(k.knobs().containsKey(PREFIX + "stagingLayout") ? k.enumOf("stagingLayout",
                    StagingLayout.class) : StagingLayout.PACKED)
                .build();
        } catch (final IllegalArgumentException e) {
            throw new JournalException(Problem.CORRUPTED, dir, "the header's core knobs do not make a configuration: "
                + e.getMessage());
        }
    }

    /** Typed access to the header's knobs, with one-line errors. */
    private record Knobs(Path dir, SortedMap<String, String> knobs) {
        String text(final String name) throws JournalException {
            final String value = knobs.get(PREFIX + name);
            if (value == null) {
                throw new JournalException(Problem.CORRUPTED, dir, "the header has no knob " + PREFIX + name
                    + "; the core configuration cannot be rebuilt");
            }
            return value.strip();
        }

        long longOf(final String name) throws JournalException {
            final String value = text(name);
            try {
                return Long.parseLong(value);
            } catch (final NumberFormatException e) {
                throw bad(name, value, "an integer");
            }
        }

        int intOf(final String name) throws JournalException {
            final long value = longOf(name);
            if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                throw bad(name, Long.toString(value), "a 32-bit integer");
            }
            return (int) value;
        }

        boolean boolOf(final String name) throws JournalException {
            final String value = text(name);
            if (!value.equals("true") && !value.equals("false")) {
                throw bad(name, value, "true or false");
            }
            return value.equals("true");
        }

        <E extends Enum<E>> E enumOf(final String name, final Class<E> type) throws JournalException {
            final String value = text(name);
            for (final E constant : type.getEnumConstants()) {
                if (constant.name().equals(value)) {
                    return constant;
                }
            }
            throw bad(name, value, "one of " + java.util.Arrays.toString(type.getEnumConstants()));
        }

        private JournalException bad(final String name, final String value, final String expected) {
            return new JournalException(Problem.CORRUPTED, dir, "header knob " + PREFIX + name + " = '" + value
                + "' is not " + expected);
        }
    }
}
