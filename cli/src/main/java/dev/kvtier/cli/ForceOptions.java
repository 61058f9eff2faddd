package dev.kvtier.cli;

import dev.kvtier.realio.files.Force;
import picocli.CommandLine.Option;

/**
 * {@code --force} and {@code --force-wipe}, for every command that writes a file or block device with O_DIRECT. Without
 * them kvtier writes only a path that is absent, empty, or its own file of the right kind (docs/what-kvtier-writes.md).
 */
public final class ForceOptions {
    @Option(names = "--force", description = "write over a file (or a block device without a partition table or "
        + "file system) that kvtier did not write, or a kvtier file of another kind; its contents are lost")
    boolean force;

    @Option(names = "--force-wipe", description = "as --force, and also over a block device that holds a partition "
        + "table or a file system (destroys it)")
    boolean forceWipe;

    /** The force the flags ask for. */
    public Force force() {
        return Force.of(force, forceWipe);
    }

    /** The flag given, as typed: {@code --force-wipe} or {@code --force} (call only when {@link #any()}). */
    public String flag() {
        return forceWipe ? "--force-wipe" : "--force";
    }

    /** True when either flag was given. */
    public boolean any() {
        return force || forceWipe;
    }
}
