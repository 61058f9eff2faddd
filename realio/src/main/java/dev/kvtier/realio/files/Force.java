package dev.kvtier.realio.files;

/**
 * How far the user lets kvtier write over what is not its own. Without force only an absent or empty file, or
 * kvtier's own file of the right kind, is written.
 */
public enum Force {
    /** Refuse anything that is not absent, empty or kvtier's own file of the right kind. */
    NONE,
    /** {@code --force}: also write over another file's bytes or a block device without a recognised signature. */
    FOREIGN,
    /** {@code --force-wipe}: also write over a block device that holds a partition table or a file system. */
    WIPE;

    /** True when this force allows writing over a file or device that holds bytes of another program. */
    public boolean foreign() {
        return this != NONE;
    }

    /** True when this force allows destroying a partition table or file system. */
    public boolean wipe() {
        return this == WIPE;
    }

    /** The force the two command-line flags ask for. */
    public static Force of(final boolean force, final boolean forceWipe) {
        return forceWipe ? WIPE : force ? FOREIGN : NONE;
    }
}
