package dev.kvtier.lab.images;

import java.util.Locale;

/**
 * A fault planted in how the images are built or judged, to show that the checker fails when durability is broken (a
 * canary): {@link #DATA_FLUSH_IGNORED} builds images as if every FLUSH of the data device had done nothing, which is
 * what a store that wrote a durable commit's index record before its data was flushed would leave; and
 * {@link #ACK_AT_CLAIM} judges them as if every commit the run acknowledged had been acknowledged at its claim, before
 * its bytes were written, flushed or logged.
 */
public enum PlantedFault {
    /** Nothing planted. */
    NONE,
    /** No FLUSH of the data device makes anything durable. */
    DATA_FLUSH_IGNORED,
    /** Every commit acknowledged at its claim. */
    ACK_AT_CLAIM;

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
        throw new IllegalArgumentException(
            "--plant must be none, data-flush-ignored or ack-at-claim, got '" + text + "'");
    }
}
