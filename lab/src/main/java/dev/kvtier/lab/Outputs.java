package dev.kvtier.lab;

import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.FileKind;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.realio.files.OutputFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where commands put what they write by default, and the checks their outputs share. Every default output goes under
 * one directory, {@link #ROOT} ({@code kvtier-out/} in the working directory, ignored by git): calibrate's profiles,
 * signoff's results, explore's journals of failing seeds. A path the user gives goes where it says.
 */
public final class Outputs {
    /** The one directory of default outputs, relative to the working directory. */
    public static final Path ROOT = Path.of("kvtier-out");
    /** A name that goes into a file name or a TOML string: no separators, quotes or spaces. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");

    private Outputs() {}

    /** {@code kvtier-out/<command>/<file>}. */
    public static Path defaultPath(final String command, final String file) {
        return ROOT.resolve(command).resolve(file);
    }

    /** Null, or why {@code name} (the value of {@code option}) cannot name a profile or a file. */
    public static String checkName(final String option, final String name) {
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
    public static Claim claimScratch(final Path path, final String role, final Force force,
                                     final Holder holder) throws ClaimRefused {
        return Claim.take(LibcKernel.create(), new Claim.Request(path, role, FileKind.SCRATCH, false, force, 0,
            holder));
    }

    /** The calibration's scratch file beside the L2 file: {@code DEVICE.calibration}. */
    public static Path scratchPath(final Path device) {
        return device.resolveSibling(device.getFileName() + ".calibration");
    }

    /** Null, or why results cannot go into {@code dir} (a file, or a path that holds {@code device}). */
    public static String checkResultsDir(final Path dir, final Path device) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            return "--results " + dir + " is a file; name a directory";
        }
        final String check = OutputFile.check(dir.resolve("signoff.json"), "--results", List.of(device));
        return check == null ? null : check.replace(dir.resolve("signoff.json").toString(), dir.toString());
    }

    /** This machine's host name, as results and profiles name it (letters, digits, '.' and '-'; others as '_'). */
    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "_");
        } catch (final UnknownHostException e) {
            throw new UncheckedIOException(e);
        }
    }
}
