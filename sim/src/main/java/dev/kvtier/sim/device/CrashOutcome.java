package dev.kvtier.sim.device;

/**
 * What a simulated power loss did to a device's pending writes (in flight, or completed but not yet flushed):
 * how many 4 KiB pages reached the medium whole, were lost (the old durable content stays) or were torn (some
 * 512 B sectors written, some not), over how many writes; and how many of the torn pages were garbled (a byte of
 * their new content inverted, {@link IndexCrashPages#GARBLED}).
 */
public record CrashOutcome(long pagesWritten, long pagesLost, long pagesTorn, long writesAffected,
                           long pagesGarbled) {
    public CrashOutcome {
        if (pagesWritten < 0 || pagesLost < 0 || pagesTorn < 0 || writesAffected < 0 || pagesGarbled < 0) {
            throw new IllegalArgumentException("negative crash count: " + pagesWritten + ", " + pagesLost + ", "
                + pagesTorn + ", " + writesAffected + ", " + pagesGarbled);
        }
        if (pagesGarbled > pagesTorn) {
            throw new IllegalArgumentException(pagesGarbled + " pages garbled of " + pagesTorn + " torn");
        }
        if (writesAffected == 0 && pagesWritten + pagesLost + pagesTorn > 0) {
            throw new IllegalArgumentException("pages affected without a write");
        }
    }

    /** A crash that garbled nothing. */
    public CrashOutcome(final long pagesWritten, final long pagesLost, final long pagesTorn,
                        final long writesAffected) {
        this(pagesWritten, pagesLost, pagesTorn, writesAffected, 0);
    }

    /** Pages of every affected write. */
    public long pages() {
        return pagesWritten + pagesLost + pagesTorn;
    }
}
