package dev.kvtier.cli;

import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.FileKind;
import dev.kvtier.realio.files.Force;
import java.nio.file.Path;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Where commands put what they write by default, and the checks their outputs share. Every default output goes under
 * one directory, {@link #ROOT} ({@code kvtier-out/} in the working directory, ignored by git): calibrate's profiles,
 * signoff's results, explore's journals of failing seeds. A path the user gives goes where it says.
 */
final class Outputs {
    /** The one directory of default outputs, relative to the working directory. */
    static final Path ROOT = Path.of("kvtier-out");
    /** A name that goes into a file name or a TOML string: no separators, quotes or spaces. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");

    private Outputs() {}

    /** {@code kvtier-out/<command>/<file>}. */
    static Path defaultPath(final String command, final String file) {
        return ROOT.resolve(command).resolve(file);
    }

    /** Null, or why {@code name} (the value of {@code option}) cannot name a profile or a file. */
    static String checkName(final String option, final String name) {
        if (NAME.matcher(name).matches()) {
            return null;
        }
        return option + " must be 1 to 80 letters, digits, '.', '_' or '-' (not starting with '.' or '-'), got \""
            + name.replace('\n', ' ') + "\"";
    }

    /**
     * Takes {@code path} as a scratch file of a measuring command (calibrate, bench-io, bench-recovery): it must be
     * absent, empty or kvtier's scratch file, unless {@code force}; it is locked until the claim is closed.
     */
    static Claim claimScratch(final Path path, final String role, final Force force,
                              final CommandSpec spec) throws ClaimRefused {
        return Claim.take(LibcKernel.create(), new Claim.Request(path, role, FileKind.SCRATCH, false, force, 0,
            Invocation.holder(spec)));
    }
}
