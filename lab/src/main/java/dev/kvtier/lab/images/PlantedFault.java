package dev.kvtier.lab.images;

import java.util.Locale;

/**
 * A fault planted in how the images are built, to show that the checker fails when durability is broken (a canary):
 * {@link #DATA_FLUSH_IGNORED} builds images as if every FLUSH of the data device had done nothing, which is what a
 * store that acknowledged a durable commit (and wrote its index record) before its data was flushed would leave.
 */
public enum PlantedFault {
    /** Nothing planted. */
    NONE,
    /** No FLUSH of the data device makes anything durable. */
    DATA_FLUSH_IGNORED;

    /** The option's spelling: {@code data-flush-ignored}. */
    public String option() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses the option's spelling; the message lists the choices. */
    public static PlantedFault parse(final String text) {
        for (final PlantedFault f : values()) {
            if (f.option().equals(text)) {
                return f;
            }
        }
        throw new IllegalArgumentException("--plant must be none or data-flush-ignored, got '" + text + "'");
    }
}
