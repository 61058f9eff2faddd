package dev.kvtier.sim.device;

/**
 * What a simulated power loss did to a device's pending writes (in flight, or completed but not yet flushed):
 * how many 4 KiB pages reached the medium whole, were lost (the old durable content stays) or were torn (some
 * 512 B sectors written, some not), over how many writes.
 */
public record CrashOutcome(long pagesWritten, long pagesLost, long pagesTorn, long writesAffected) {
    public CrashOutcome {
        if (pagesWritten < 0 || pagesLost < 0 || pagesTorn < 0 || writesAffected < 0) {
            throw new IllegalArgumentException("negative crash count: " + pagesWritten + ", " + pagesLost + ", "
                + pagesTorn + ", " + writesAffected);
        }
        if (writesAffected == 0 && pagesWritten + pagesLost + pagesTorn > 0) {
            throw new IllegalArgumentException("pages affected without a write");
        }
    }

    /** Pages of every affected write. */
    public long pages() {
        return pagesWritten + pagesLost + pagesTorn;
    }
}
