package dev.kvtier.cli;

import static dev.kvtier.cli.BadInput.refused;

import dev.kvtier.cli.BadInput.Setup;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalWriter;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.FileHeader;
import dev.kvtier.realio.files.FileKind;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.HeaderLayout;
import dev.kvtier.realio.files.Holder;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The corpus cases where kvtier is pointed at files and directories of its users: devices, index files and scratch
 * files it did not create (a file of another program, a link, a 2-byte file, a kvtier file of another kind, a damaged
 * header), journals that are missing, truncated or damaged, outputs over good files, and paths another run holds.
 * Each is refused with one line and leaves every file as it was.
 */
final class CorpusFiles {
    /** A file of the user's that kvtier did not create: 64 KiB of seeded bytes. */
    private static final byte[] USERS = new byte[64 << 10];

    static {
        new Random(16).nextBytes(USERS);
    }

    private CorpusFiles() {}

    static List<BadInput> all(final Supplier<Path> journal) {
        final List<BadInput> cases = new ArrayList<>();
        devices(cases);
        indexes(cases);
        scratch(cases);
        journals(cases, journal);
        held(cases);
        return cases;
    }

    private static Setup users(final String name) {
        return dir -> {
            Files.write(dir.resolve(name), USERS);
            return null;
        };
    }

    private static Setup bytes(final String name, final byte[] bytes) {
        return dir -> {
            Files.write(dir.resolve(name), bytes);
            return null;
        };
    }

    /** A file at {@code name} with a kvtier header of {@code kind} (then 64 KiB of data). */
    private static Setup kvtier(final String name, final FileKind kind, final long pairId) {
        return dir -> {
            final byte[] file = new byte[HeaderLayout.BYTES + (64 << 10)];
            final byte[] header = FileHeader.claimed(kind, 42, pairId, 0, new Holder(1, "h", "kvtier earlier", 0))
                .encode();
            System.arraycopy(header, 0, file, 0, header.length);
            Files.write(dir.resolve(name), file);
            return null;
        };
    }

    private static Setup both(final Setup a, final Setup b) {
        return dir -> {
            a.prepare(dir);
            return b.prepare(dir);
        };
    }

    private static BadInput real(final String name, final Setup setup, final String mentions, final String... more) {
        final List<String> args = new ArrayList<>(List.of("run", "{d}/s.toml", "--mode", "real"));
        args.addAll(List.of(more));
        return refused("device: " + name, Setup.and(setup), mentions, args.toArray(String[]::new));
    }

    private static void devices(final List<BadInput> cases) {
        cases.add(real("an existing file of the user's", users("l2.bin"), "did not write", "--device", "{d}/l2.bin"));
        cases.add(real("a tar archive of the user's", dir -> {
            final byte[] tar = USERS.clone();
            System.arraycopy("ustar".getBytes(StandardCharsets.US_ASCII), 0, tar, 257, 5);
            Files.write(dir.resolve("existing.tar"), tar);
            return null;
        }, "tar archive", "--device", "{d}/existing.tar"));
        cases.add(real("a 2-byte file", bytes("l2.bin", new byte[] {'h', 'i'}), "2 B", "--device", "{d}/l2.bin"));
        cases.add(real("a file of one zero byte", bytes("l2.bin", new byte[1]), "1 B", "--device", "{d}/l2.bin"));
        cases.add(real("a link to a file of the user's", both(users("mine.bin"), dir -> {
            Files.createSymbolicLink(dir.resolve("l2.bin"), dir.resolve("mine.bin"));
            return null;
        }), "a link to", "--device", "{d}/l2.bin"));
        cases.add(real("a dangling link", dir -> {
            Files.createSymbolicLink(dir.resolve("l2.bin"), dir.resolve("gone.bin"));
            return null;
        }, "dangling", "--device", "{d}/l2.bin"));
        cases.add(real("a directory", dir -> {
            Files.createDirectory(dir.resolve("l2"));
            return null;
        }, "directory", "--device", "{d}/l2"));
        cases.add(real("a character device", dir -> null, "character device", "--device", "/dev/null"));
        cases.add(real("a missing parent directory", dir -> null, "does not exist", "--device", "{d}/no/l2.bin"));
        cases.add(real("a parent that is a file", users("f"), "not a directory", "--device", "{d}/f/l2.bin"));
        cases.add(real("a kvtier index as the data file", kvtier("l2.bin", FileKind.INDEX, 0), "index file",
            "--device", "{d}/l2.bin"));
        cases.add(real("a kvtier scratch file as the data file", kvtier("l2.bin", FileKind.SCRATCH, 0),
            "scratch file", "--device", "{d}/l2.bin"));
        cases.add(real("a damaged kvtier header", dir -> {
            kvtier("l2.bin", FileKind.DATA, 0).prepare(dir);
            flip(dir.resolve("l2.bin"), 100);
            return null;
        }, "damaged", "--device", "{d}/l2.bin"));
        cases.add(real("a header of a newer kvtier", dir -> {
            kvtier("l2.bin", FileKind.DATA, 0).prepare(dir);
            try (RandomAccessFile f = new RandomAccessFile(dir.resolve("l2.bin").toFile(), "rw")) {
                f.seek(HeaderLayout.VERSION_OFFSET);
                f.write(99);
            }
            return null;
        }, "newer", "--device", "{d}/l2.bin"));
        cases.add(real("more native memory than the machine has", dir -> {
            Files.writeString(dir.resolve("s.toml"), TinyScenario.text("corpus", "").replace("l1Fraction = 0.5",
                "l1Bytes = 1099511627776"));
            return null;
        }, "native memory", "--device", "{d}/l2.bin"));
        cases.add(real("--recover with no device", dir -> null, "nothing to recover", "--device", "{d}/l2.bin",
            "--recover"));
        cases.add(real("--recover on a file of the user's", users("l2.bin"), "nothing to recover", "--device",
            "{d}/l2.bin", "--recover"));
        cases.add(real("--recover on an empty file", bytes("l2.bin", new byte[0]), "empty", "--device", "{d}/l2.bin",
            "--recover"));
        cases.add(real("--recover --force on a file of the user's", users("l2.bin"), "nothing to recover",
            "--device", "{d}/l2.bin", "--recover", "--force"));
    }

    private static void indexes(final List<BadInput> cases) {
        cases.add(real("a file of the user's at DEVICE.index", users("l2.bin.index"), "--index-device", "--device",
            "{d}/l2.bin"));
        cases.add(real("a file of the user's as --index-device", users("idx"), "--index-device", "--device",
            "{d}/l2.bin", "--index-device", "{d}/idx"));
        cases.add(real("--index-device is --device", dir -> null, "another file", "--device", "{d}/l2.bin",
            "--index-device", "{d}/l2.bin"));
        cases.add(real("--index-device is a link to --device", both(kvtier("l2.bin", FileKind.DATA, 0), dir -> {
            Files.createSymbolicLink(dir.resolve("idx"), dir.resolve("l2.bin"));
            return null;
        }), "another file", "--device", "{d}/l2.bin", "--index-device", "{d}/idx"));
        cases.add(real("--index-device is a directory", dir -> {
            Files.createDirectory(dir.resolve("idx"));
            return null;
        }, "directory", "--device", "{d}/l2.bin", "--index-device", "{d}/idx"));
        cases.add(real("a kvtier data file as --index-device", kvtier("idx", FileKind.DATA, 0), "L2 data file",
            "--device", "{d}/l2.bin", "--index-device", "{d}/idx"));
        cases.add(real("the index of another data file", both(kvtier("l2.bin", FileKind.DATA, 0), kvtier(
            "l2.bin.index", FileKind.INDEX, 7)), "another L2 data file", "--device", "{d}/l2.bin"));
        cases.add(real("--recover with the index of another data file", both(kvtier("l2.bin", FileKind.DATA, 0),
            kvtier("l2.bin.index", FileKind.INDEX, 7)), "another L2 data file", "--device", "{d}/l2.bin",
            "--recover"));
        cases.add(real("--recover with a file of the user's as the index", both(kvtier("l2.bin", FileKind.DATA, 0),
            users("l2.bin.index")), "nothing to recover", "--device", "{d}/l2.bin", "--recover"));
        cases.add(real("--recover with no index", kvtier("l2.bin", FileKind.DATA, 0), "does not exist", "--device",
            "{d}/l2.bin", "--recover"));
        cases.add(real("--recover with an empty index", both(kvtier("l2.bin", FileKind.DATA, 0), bytes("l2.bin.index",
            new byte[0])), "empty", "--device", "{d}/l2.bin", "--recover"));
    }

    private static void scratch(final List<BadInput> cases) {
        final String[][] commands = {
            {"calibrate", "--out", "{d}/d.toml", "--host-out", "{d}/h.toml", "--quick"},
            {"bench-io", "--quick"},
            {"bench-recovery", "--slots", "16", "--records", "10"},
        };
        for (final String[] c : commands) {
            final String command = c[0];
            final List<String> rest = List.of(c).subList(1, c.length);
            cases.add(scratchCase(command, "a file of the user's", users("s"), "did not write", rest));
            cases.add(scratchCase(command, "a 2-byte file", bytes("s", new byte[] {1, 2}), "2 B", rest));
            cases.add(scratchCase(command, "a link to a file of the user's", both(users("mine"), dir -> {
                Files.createSymbolicLink(dir.resolve("s"), dir.resolve("mine"));
                return null;
            }), "a link to", rest));
            cases.add(scratchCase(command, "a kvtier L2 data file", kvtier("s", FileKind.DATA, 0), "L2 data file",
                rest));
            cases.add(scratchCase(command, "a directory", dir -> {
                Files.createDirectory(dir.resolve("s"));
                return null;
            }, "directory", rest));
            cases.add(scratchCase(command, "held by another run", dir -> hold(dir.resolve("s"), FileKind.SCRATCH),
                "in use by", rest));
        }
        cases.add(refused("signoff: a file of the user's at DEVICE.calibration", both(BadInput.Setup.SCENARIO, users(
            "l2.bin.calibration")), "calibration scratch file", "signoff", "{d}/s.toml", "--device", "{d}/l2.bin",
            "--results", "{d}/results"));
        cases.add(refused("fidelity: a file of the user's at DEVICE.calibration", users("l2.bin.calibration"),
            "calibration scratch file", "fidelity", "--device", "{d}/l2.bin", "--results", "{d}/results"));
    }

    private static BadInput scratchCase(final String command, final String name, final Setup setup,
                                        final String mentions, final List<String> rest) {
        final List<String> args = new ArrayList<>(List.of(command, "--device", "{d}/s"));
        args.addAll(rest);
        return refused(command + ": " + name, setup, mentions, args.toArray(String[]::new));
    }

    /** A copy of the recorded journal at {@code {d}/j}, then {@code damage} done to it. */
    private static Setup journal(final Supplier<Path> journal, final Damage damage) {
        return dir -> {
            final Path j = Files.createDirectory(dir.resolve("j"));
            try (Stream<Path> files = Files.list(journal.get())) {
                for (final Path f : files.toList()) {
                    sparseCopy(f, j.resolve(f.getFileName()));
                }
            }
            damage.apply(j);
            Files.writeString(dir.resolve("out.json"), "{\"a\": \"trace the user keeps\"}\n");
            return null;
        };
    }

    /** Copies {@code from} to {@code to}, leaving holes where it has MiBs of zeros (a queue file is mostly zeros). */
    private static void sparseCopy(final Path from, final Path to) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            final ByteBuffer b = ByteBuffer.allocate(1 << 20);
            long at = 0;
            while (true) {
                b.clear();
                final int n = in.read(b, at);
                if (n <= 0) {
                    break;
                }
                b.flip();
                if (!allZero(b)) {
                    out.write(b, at);
                }
                at += n;
            }
            if (out.size() < at) {
                out.write(ByteBuffer.allocate(1), at - 1);
            }
        }
    }

    private static boolean allZero(final ByteBuffer b) {
        for (int i = b.position(); i < b.limit(); i++) {
            if (b.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Something done to a journal's files. */
    @FunctionalInterface
    private interface Damage {
        void apply(Path journal) throws IOException;
    }

    private static Path cq4(final Path journal) throws IOException {
        try (Stream<Path> s = Files.list(journal)) {
            return s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    private static void flip(final Path file, final long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            final int b = f.read();
            f.seek(offset);
            f.write(b ^ 0xFF);
        }
    }

    private static void journals(final List<BadInput> cases, final Supplier<Path> journal) {
        final List<Object[]> damages = List.of(
            new Object[] {"a flipped byte in the queue file's header", (Damage) j -> flip(cq4(j), 16)},
            new Object[] {"another flipped header byte", (Damage) j -> flip(cq4(j), 80)},
            new Object[] {"a truncated queue file", (Damage) j -> {
                try (RandomAccessFile f = new RandomAccessFile(cq4(j).toFile(), "rw")) {
                    f.setLength(f.length() / 2);
                }
            }},
            new Object[] {"an empty queue file", (Damage) j -> Files.write(cq4(j), new byte[0])},
            new Object[] {"a missing queue file", (Damage) j -> Files.delete(cq4(j))},
            new Object[] {"a missing seal", (Damage) j -> Files.delete(j.resolve("kvtier-journal.seal"))},
            new Object[] {"a damaged seal", (Damage) j -> Files.writeString(j.resolve("kvtier-journal.seal"), "x")},
            new Object[] {"a missing metadata file", (Damage) j -> Files.delete(j.resolve("metadata.cq4t"))});
        for (final Object[] d : damages) {
            final String name = (String) d[0];
            final Setup setup = journal(journal, (Damage) d[1]);
            cases.add(refused("replay: " + name, setup, "journal", "replay", "{d}/j"));
            cases.add(refused("journal dump: " + name, setup, "journal", "journal", "dump", "{d}/j"));
            cases.add(refused("trace over an existing trace: " + name, setup, "journal", "trace", "{d}/j",
                "--perfetto", "{d}/out.json"));
        }
        cases.add(refused("trace over a file of the journal", journal(journal, j -> {}), "input", "trace", "{d}/j",
            "--perfetto", "{d}/j/metadata.cq4t"));
        cases.add(refused("run --journal into a journal", both(Setup.SCENARIO, journal(journal, j -> {})),
            "not empty", "run", "{d}/s.toml", "--journal", "{d}/j"));
        cases.add(refused("run --journal into a directory of the user's", both(Setup.SCENARIO, dir -> {
            Files.writeString(Files.createDirectory(dir.resolve("j")).resolve("notes.txt"), "mine");
            return null;
        }), "notes.txt", "run", "{d}/s.toml", "--journal", "{d}/j"));
    }

    /** A claim on {@code path} by "another run" (this process, through its own descriptor), released after. */
    private static AutoCloseable hold(final Path path, final FileKind kind) throws Exception {
        return Claim.take(LibcKernel.create(), new Claim.Request(path, "--device", kind, false, Force.NONE, 0,
            new Holder(ProcessHandle.current().pid(), "h", "kvtier run other --mode real", 0)));
    }

    private static void held(final List<BadInput> cases) {
        cases.add(real("the device held by another run", dir -> hold(dir.resolve("l2.bin"), FileKind.DATA),
            "in use by", "--device", "{d}/l2.bin"));
        cases.add(real("the device held by another run, a journal asked for", dir -> hold(dir.resolve("l2.bin"),
            FileKind.DATA), "in use by", "--device", "{d}/l2.bin", "--journal", "{d}/j"));
        cases.add(real("the index held by another run", dir -> hold(dir.resolve("l2.bin.index"), FileKind.INDEX),
            "in use by", "--device", "{d}/l2.bin"));
        cases.add(real("--index-device held by another run", dir -> hold(dir.resolve("idx"), FileKind.INDEX),
            "in use by", "--device", "{d}/l2.bin", "--index-device", "{d}/idx"));
        cases.add(refused("run --journal held by another run", both(Setup.SCENARIO, dir -> new JournalWriter(dir
            .resolve("j"), header(), () -> 0L, Long.MAX_VALUE, "pid 1 (kvtier run other --journal j)")),
            "another run writes it", "run", "{d}/s.toml", "--journal", "{d}/j"));
        cases.add(refused("real run --journal held by another run", both(Setup.SCENARIO, dir -> new JournalWriter(dir
            .resolve("j"), header(), () -> 0L, Long.MAX_VALUE, "pid 1 (kvtier run other --journal j)")),
            "another run writes it", "run", "{d}/s.toml", "--mode", "real", "--device", "{d}/l2.bin", "--journal",
            "{d}/j"));
    }

    private static JournalHeader header() {
        return JournalHeader.of("[scenario]\nname = \"other\"\n", 1, Map.of(), "0", "test", JournalHeader.VIRTUAL);
    }
}
