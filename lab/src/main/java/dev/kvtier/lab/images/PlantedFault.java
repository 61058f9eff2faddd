package dev.kvtier.lab.images;

import dev.kvtier.lab.OptionSpelling;

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

    /** The option's spelling ({@link OptionSpelling}). */
    public String option() {
        return OptionSpelling.of(this);
    }

    /** Parses the option's spelling; the message lists the choices. */
    public static PlantedFault parse(final String text) {
        return OptionSpelling.parse(PlantedFault.class, "--plant", text);
    }
}
