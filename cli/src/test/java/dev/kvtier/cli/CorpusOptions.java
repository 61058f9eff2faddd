package dev.kvtier.cli;

import static dev.kvtier.cli.BadInput.refused;

import dev.kvtier.cli.BadInput.Setup;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Bad options for the corpus, command by command: values out of range, options that go together or exclude each
 * other, unknown options and values, and output paths that cannot be written (a directory, one of the inputs, below
 * a file). Each is refused with exit 2 before anything is created.
 */
final class CorpusOptions {
    private static final Setup FILE = dir -> {
        Files.writeString(dir.resolve("file"), "a file of the user's\n");
        return null;
    };

    private CorpusOptions() {}

    static List<BadInput> all() {
        final List<BadInput> cases = new ArrayList<>();
        run(cases);
        explore(cases);
        journals(cases);
        measuring(cases);
        others(cases);
        crashImages(cases);
        return cases;
    }

    private static BadInput run(final String name, final String mentions, final String... args) {
        final String[] all = new String[args.length + 2];
        all[0] = "run";
        all[1] = "{d}/s.toml";
        System.arraycopy(args, 0, all, 2, args.length);
        return refused("run " + name, Setup.and(FILE), mentions, all);
    }

    private static void run(final List<BadInput> cases) {
        cases.add(run("--seed abc", "seed", "--seed", "abc"));
        cases.add(run("--seed beyond 64 bits", "seed", "--seed", "99999999999999999999"));
        cases.add(run("--mode bogus", "mode", "--mode", "bogus"));
        cases.add(run("--mode real without --device", "--device", "--mode", "real"));
        cases.add(run("--device without --mode real", "--device", "--device", "{d}/l2.bin"));
        cases.add(run("--index-device without --mode real", "--index-device", "--index-device", "{d}/i"));
        cases.add(run("--recover without --mode real", "--recover", "--recover"));
        cases.add(run("--force without --mode real", "--force", "--force"));
        cases.add(run("--force-wipe without --mode real", "--force-wipe", "--force-wipe"));
        cases.add(run("--timeout 0", "--timeout", "--mode", "real", "--device", "{d}/l2.bin", "--timeout", "0"));
        cases.add(run("--timeout -5", "--timeout", "--mode", "real", "--device", "{d}/l2.bin", "--timeout", "-5"));
        cases.add(run("--timeout beyond a day", "--timeout", "--mode", "real", "--device", "{d}/l2.bin", "--timeout",
            "9223372036854775807"));
        cases.add(run("--io bogus", "io", "--mode", "real", "--device", "{d}/l2.bin", "--io", "bogus"));
        cases.add(run("--journal-max-bytes 0", "--journal-max-bytes", "--journal", "{d}/j", "--journal-max-bytes",
            "0"));
        cases.add(run("--journal-max-bytes without --journal", "--journal", "--journal-max-bytes", "1000"));
        cases.add(run("an unknown option", "--bogus", "--bogus"));
        cases.add(run("--seed without a value", "seed", "--seed"));
        cases.add(run("--report is a directory", "directory", "--report", "{d}"));
        cases.add(run("--report is the scenario", "input", "--report", "{d}/s.toml"));
        cases.add(run("--report below a file", "not a directory", "--report", "{d}/file/r.json"));
        cases.add(run("--report is the device", "input", "--mode", "real", "--device", "{d}/l2.bin", "--report",
            "{d}/l2.bin"));
        cases.add(run("--report is the index", "input", "--mode", "real", "--device", "{d}/l2.bin", "--report",
            "{d}/l2.bin.index"));
        cases.add(run("--journal is a file", "--journal", "--journal", "{d}/file"));
        cases.add(run("--journal is the scenario", "--journal", "--journal", "{d}/s.toml"));
        cases.add(refused("run without a scenario", dir -> null, "SCENARIO", "run"));
        cases.add(refused("run with two scenarios", Setup.SCENARIO, "unmatched", "run", "{d}/s.toml", "{d}/s.toml"));
        cases.add(refused("an unknown command", dir -> null, "bogus", "bogus"));
    }

    private static BadInput explore(final String name, final String mentions, final String... args) {
        final String[] all = new String[args.length + 2];
        all[0] = "explore";
        all[1] = "{d}/s.toml";
        System.arraycopy(args, 0, all, 2, args.length);
        return refused("explore " + name, Setup.and(FILE), mentions, all);
    }

    private static void explore(final List<BadInput> cases) {
        cases.add(explore("without --seeds", "--seeds"));
        cases.add(explore("--seeds 0", "--seeds", "--seeds", "0"));
        cases.add(explore("--seeds -3", "--seeds", "--seeds", "-3"));
        cases.add(explore("--seeds beyond the plan", "--seeds", "--seeds", "100000000000"));
        cases.add(explore("--from past the largest seed", "largest seed", "--seeds", "10", "--from",
            "9223372036854775807"));
        cases.add(explore("--shard 3/2", "shard", "--seeds", "4", "--shard", "3/2"));
        cases.add(explore("--shard a/b", "shard", "--seeds", "4", "--shard", "a/b"));
        cases.add(explore("--shard 0/0", "shard", "--seeds", "4", "--shard", "0/0"));
        cases.add(explore("--shard and --shard-from-env", "exclude", "--seeds", "4", "--shard", "0/2",
            "--shard-from-env"));
        cases.add(explore("--journals is a file", "--journals", "--seeds", "1", "--journals", "{d}/file"));
        cases.add(explore("--summary below a file", "not a directory", "--seeds", "1", "--summary",
            "{d}/file/s.json"));
        cases.add(explore("--summary is the scenario", "input", "--seeds", "1", "--summary", "{d}/s.toml"));
        cases.add(refused("explore without a scenario", dir -> null, "SCENARIO", "explore", "--seeds", "1"));
        cases.add(refused("explore merge of no file", dir -> null, "FILE", "explore", "merge"));
        cases.add(refused("explore merge of a file that is not a summary", FILE, "file", "explore", "merge",
            "{d}/file"));
        cases.add(refused("explore merge of a missing file", dir -> null, "missing.json", "explore", "merge",
            "{d}/missing.json"));
        cases.add(refused("explore merge --markdown is an input", FILE, "input", "explore", "merge", "{d}/file",
            "--markdown", "{d}/file"));
    }

    private static void journals(final List<BadInput> cases) {
        cases.add(refused("replay of a missing directory", dir -> null, "nothing", "replay", "{d}/nothing"));
        cases.add(refused("replay of a file", FILE, "file", "replay", "{d}/file"));
        cases.add(refused("replay of an empty directory", dir -> {
            Files.createDirectory(dir.resolve("e"));
            return null;
        }, "not a journal", "replay", "{d}/e"));
        cases.add(refused("replay --until -1", dir -> null, "--until", "replay", "{d}", "--until", "-1"));
        cases.add(refused("journal dump of a missing directory", dir -> null, "nothing", "journal", "dump",
            "{d}/nothing"));
        cases.add(refused("journal dump of an empty directory", dir -> {
            Files.createDirectory(dir.resolve("e"));
            return null;
        }, "not a journal", "journal", "dump", "{d}/e"));
        cases.add(refused("journal dump --from 5 --to 4", dir -> null, "range", "journal", "dump", "{d}", "--from",
            "5", "--to", "4"));
        cases.add(refused("journal dump --from -1", dir -> null, "range", "journal", "dump", "{d}", "--from", "-1"));
        cases.add(refused("journal dump of an unknown event type", dir -> null, "Nope", "journal", "dump", "{d}",
            "--type", "Nope"));
        cases.add(refused("journal without a subcommand", dir -> null, "scribble", "journal", "scribble"));
        cases.add(refused("trace of a missing directory", dir -> null, "nothing", "trace", "{d}/nothing",
            "--perfetto", "{d}/t.json"));
        cases.add(refused("trace without --perfetto", dir -> null, "--perfetto", "trace", "{d}"));
        cases.add(refused("trace --perfetto is a directory", dir -> null, "directory", "trace", "{d}", "--perfetto",
            "{d}"));
        cases.add(refused("trace --perfetto below a file", FILE, "not a directory", "trace", "{d}", "--perfetto",
            "{d}/file/t.json"));
    }

    private static BadInput calibrate(final String name, final String mentions, final String... args) {
        final List<String> all = new ArrayList<>(List.of("calibrate", "--device", "{d}/scratch", "--out",
            "{d}/d.toml", "--host-out", "{d}/h.toml"));
        all.addAll(List.of(args));
        return refused("calibrate " + name, dir -> null, mentions, all.toArray(String[]::new));
    }

    private static void measuring(final List<BadInput> cases) {
        cases.add(refused("calibrate --name with a slash", dir -> null, "--name", "calibrate", "--device",
            "{d}/scratch", "--name", "a/b", "--out", "{d}/d.toml", "--host-out", "{d}/h.toml"));
        cases.add(refused("calibrate --name with a quote", dir -> null, "--name", "calibrate", "--device",
            "{d}/scratch", "--name", "a\"b", "--out", "{d}/d.toml", "--host-out", "{d}/h.toml"));
        cases.add(refused("calibrate --out is a directory", dir -> null, "directory", "calibrate", "--device",
            "{d}/scratch", "--out", "{d}", "--host-out", "{d}/h.toml"));
        cases.add(refused("calibrate --out is the device", FILE, "input", "calibrate", "--device", "{d}/file",
            "--out", "{d}/file", "--host-out", "{d}/h.toml"));
        cases.add(refused("calibrate --host-out is --out", dir -> null, "input", "calibrate", "--device",
            "{d}/scratch", "--out", "{d}/d.toml", "--host-out", "{d}/d.toml"));
        cases.add(refused("calibrate without --device", dir -> null, "--device", "calibrate"));
        cases.add(calibrate("--repeat 0", "--repeat", "--repeat", "0"));
        cases.add(calibrate("--repeat abc", "repeat", "--repeat", "abc"));
        cases.add(calibrate("--size not a whole MiB", "--size", "--size", "1000"));
        cases.add(calibrate("--size too small for the plan", "--size", "--size", "1048576"));
        cases.add(calibrate("--size beyond a TiB", "--size", "--size", "9223372036854775807"));
        cases.add(calibrate("--compare-ms 0", "--compare-ms", "--compare-ms", "0"));
        cases.add(calibrate("--compare-ms beyond an hour", "--compare-ms", "--compare-ms", "9223372036854775807"));
        cases.add(calibrate("--max-read-bytes-per-sec -1", "--max-read", "--max-read-bytes-per-sec", "-1"));
        cases.add(calibrate("--scenario missing", "no such scenario", "--scenario", "{d}/none.toml"));
        cases.add(refused("bench-io --size 0", dir -> null, "--size", "bench-io", "--device", "{d}/s", "--size",
            "0"));
        cases.add(refused("bench-io --size not a whole MiB", dir -> null, "--size", "bench-io", "--device", "{d}/s",
            "--size", "4194305"));
        cases.add(refused("bench-io --size of 4 KiB", dir -> null, "--size", "bench-io", "--device", "{d}/s",
            "--size", "4096"));
        cases.add(refused("bench-io --size beyond a TiB", dir -> null, "--size", "bench-io", "--device", "{d}/s",
            "--size", "9223372036854775807"));
        cases.add(refused("bench-io --seconds 0", dir -> null, "--seconds", "bench-io", "--device", "{d}/s",
            "--seconds", "0"));
        cases.add(refused("bench-io --seconds -1", dir -> null, "--seconds", "bench-io", "--device", "{d}/s",
            "--seconds", "-1"));
        cases.add(refused("bench-recovery --repeat 0", dir -> null, "--repeat", "bench-recovery", "--device",
            "{d}/s", "--repeat", "0"));
        cases.add(refused("bench-recovery --slot-bytes not a multiple of 4096", dir -> null, "--slot-bytes",
            "bench-recovery", "--device", "{d}/s", "--slot-bytes", "1000"));
        cases.add(refused("bench-recovery --slots 0", dir -> null, "--slots", "bench-recovery", "--device", "{d}/s",
            "--slots", "0"));
        cases.add(refused("bench-recovery --records -1", dir -> null, "--records", "bench-recovery", "--device",
            "{d}/s", "--records", "-1"));
        cases.add(refused("bench-recovery --chunks above --slots", dir -> null, "--chunks", "bench-recovery",
            "--device", "{d}/s", "--slots", "10", "--chunks", "11"));
        cases.add(refused("bench-recovery --records beyond the limit", dir -> null, "--records", "bench-recovery",
            "--device", "{d}/s", "--records", "1000000000000"));
    }

    private static void others(final List<BadInput> cases) {
        cases.add(refused("gate without a [gate] table", Setup.SCENARIO, "gate", "gate", "{d}/s.toml"));
        cases.add(refused("gate of a missing scenario", dir -> null, "no such scenario", "gate", "{d}/x.toml"));
        cases.add(refused("sweep without --vary", Setup.SCENARIO, "--vary", "sweep", "{d}/s.toml"));
        cases.add(refused("sweep --vary without values", Setup.SCENARIO, "vary", "sweep", "{d}/s.toml", "--vary",
            "core.l1Fraction="));
        cases.add(refused("signoff without --device", Setup.SCENARIO, "--device", "signoff", "{d}/s.toml"));
        cases.add(refused("signoff --results is a file", Setup.and(FILE), "--results", "signoff", "{d}/s.toml",
            "--device", "{d}/l2.bin", "--results", "{d}/file"));
        cases.add(refused("signoff --profile that is not a profile", Setup.and(FILE), "file", "signoff",
            "{d}/s.toml", "--device", "{d}/l2.bin", "--profile", "{d}/file"));
        cases.add(refused("signoff --repeat 0", Setup.SCENARIO, "--repeat", "signoff", "{d}/s.toml", "--device",
            "{d}/l2.bin", "--repeat", "0", "--results", "{d}/r"));
        cases.add(refused("signoff --host-profile that is not a profile", Setup.and(FILE), "file", "signoff",
            "{d}/s.toml", "--device", "{d}/l2.bin", "--host-profile", "{d}/file", "--results", "{d}/r"));
        cases.add(refused("sweep --out is a directory", Setup.and(dir -> {
            Files.createDirectory(dir.resolve("r.json"));
            return null;
        }), "directory", "sweep", "{d}/s.toml", "--vary", "core.l1Fraction=0.5,0.6", "--out", "{d}/r"));
        cases.add(refused("sweep --out below a file", Setup.and(FILE), "not a directory", "sweep", "{d}/s.toml",
            "--vary", "core.l1Fraction=0.5,0.6", "--out", "{d}/file/r"));
        cases.add(refused("sweep --seed abc", Setup.SCENARIO, "seed", "sweep", "{d}/s.toml", "--vary",
            "core.l1Fraction=0.5", "--seed", "abc"));
        cases.add(refused("baseline of a path, not a library scenario", Setup.SCENARIO, "library", "baseline",
            "{d}/s.toml", "--dir", "{d}/b"));
        cases.add(refused("baseline --dir is a file", FILE, "--dir", "baseline", "pr90-evict-small", "--dir",
            "{d}/file"));
        fidelity(cases);
        others2(cases);
        issue35(cases);
    }

    /** Issue 35's new inputs: negative seeds, --swarm, a baseline file of the user's, a mistyped command. */
    private static void issue35(final List<BadInput> cases) {
        cases.add(run("--seed -1", "--seed", "--seed", "-1"));
        cases.add(run("--swarm on a scenario without [swarm]", "[swarm]", "--swarm"));
        cases.add(refused("explore --minutes -1", Setup.SCENARIO, "--minutes", "explore", "{d}/s.toml", "--seeds", "3",
            "--minutes", "-1"));
        cases.add(refused("explore --from -5", Setup.SCENARIO, "--from", "explore", "{d}/s.toml", "--seeds", "3",
            "--from", "-5"));
        cases.add(refused("gate --seed -2", Setup.SCENARIO, "--seed", "gate", "{d}/s.toml", "--seed", "-2"));
        cases.add(refused("baseline --file with two scenarios", Setup.SCENARIO, "exactly one", "baseline",
            "{d}/s.toml", "pr90-evict-small", "--file", "{d}/b.json"));
        cases.add(refused("baseline --file check without a recorded file", Setup.SCENARIO, "no baseline",
            "baseline", "{d}/s.toml", "--file", "{d}/b.json"));
        cases.add(refused("baseline --band without --file", dir -> null, "--file", "baseline", "pr90-evict-small",
            "--band", "ttft.cold.*=0.1"));
        cases.add(refused("baseline --band out of range", Setup.SCENARIO, "band", "baseline", "{d}/s.toml",
            "--file", "{d}/b.json", "--update", "--band", "ttft.cold.*=20"));
        cases.add(refused("baseline --band not a number", Setup.SCENARIO, "band", "baseline", "{d}/s.toml",
            "--file", "{d}/b.json", "--update", "--band", "ttft.cold.*=lots"));
        cases.add(refused("baseline --figures that keep nothing", Setup.SCENARIO, "keeps no figure", "baseline",
            "{d}/s.toml", "--file", "{d}/b.json", "--update", "--figures", "no.such.*"));
        cases.add(refused("baseline check with recording options", Setup.SCENARIO, "recorded with --update",
            "baseline", "{d}/s.toml", "--file", "{d}/b.json", "--seed", "3"));
        cases.add(refused("a mistyped command", dir -> null, "did you mean run", "runn", "pr90-evict-small"));
        cases.add(run("--set a size that is not one", "must be a size", "--set", "core.l2Bytes=lots"));
        cases.add(run("--set a size that is not whole bytes", "whole number of bytes", "--set",
            "core.stagingBatchBytes=1.3B"));
        cases.add(run("--set a size with an unknown unit", "must be a size", "--set", "core.l1Bytes=64GB2"));
        cases.add(run("--set an unknown model preset", "no bundled model", "--set", "model.preset=gpt-9"));
        cases.add(run("--set kvPerHead 3", "kvPerHead", "--set", "model.kvPerHead=3"));
        cases.add(refused("calibrate --set without --scenario", dir -> null, "--scenario", "calibrate", "--device",
            "{d}/cal.bin", "--set", "model.layers=4"));
        cases.add(refused("calibrate --set of an unknown key", dir -> null, "core.bogus", "calibrate", "--device",
            "{d}/cal.bin", "--quick", "--scenario", "pr90-evict-small", "--set", "core.bogus=1"));
    }

    private static void fidelity(final List<BadInput> cases) {
        cases.add(refused("fidelity without --device", dir -> null, "--device", "fidelity"));
        cases.add(refused("fidelity --repeat 0", dir -> null, "--repeat", "fidelity", "--device", "{d}/l2.bin",
            "--repeat", "0", "--results", "{d}/r"));
        cases.add(refused("fidelity --repeat abc", dir -> null, "repeat", "fidelity", "--device", "{d}/l2.bin",
            "--repeat", "abc"));
        cases.add(refused("fidelity --only an unknown entry", dir -> null, "--only", "fidelity", "--device",
            "{d}/l2.bin", "--only", "bogus", "--results", "{d}/r"));
        cases.add(refused("fidelity --results is a file", FILE, "--results", "fidelity", "--device", "{d}/l2.bin",
            "--results", "{d}/file"));
        cases.add(refused("fidelity --profile that is not a profile", FILE, "file", "fidelity", "--device",
            "{d}/l2.bin", "--profile", "{d}/file", "--results", "{d}/r"));
        cases.add(refused("fidelity --seed beyond 64 bits", dir -> null, "seed", "fidelity", "--device",
            "{d}/l2.bin", "--seed", "99999999999999999999"));
    }

    private static void others2(final List<BadInput> cases) {
        cases.add(refused("signoff of a malformed scenario", dir -> {
            Files.writeString(dir.resolve("s.toml"), "[scenario\n");
            return null;
        }, "s.toml:", "signoff", "{d}/s.toml", "--device", "{d}/l2.bin"));
    }

    private static void crashImages(final List<BadInput> cases) {
        cases.add(refused("crash-images without a scenario", dir -> null, "SCENARIO", "crash-images", "--device",
            "{d}/l2.bin"));
        cases.add(refused("crash-images without --device", dir -> null, "--device", "crash-images",
            "pr90-evict-small"));
        cases.add(refused("crash-images --images 0", dir -> null, "--images", "crash-images", "pr90-evict-small",
            "--device", "{d}/l2.bin", "--images", "0"));
        cases.add(refused("crash-images --record-max-mib 0", dir -> null, "--record-max-mib", "crash-images",
            "pr90-evict-small", "--device", "{d}/l2.bin", "--record-max-mib", "0"));
        cases.add(refused("crash-images --timeout 0", dir -> null, "--timeout", "crash-images", "pr90-evict-small",
            "--device", "{d}/l2.bin", "--timeout", "0"));
        cases.add(refused("crash-images --plant unknown", dir -> null, "--plant", "crash-images",
            "pr90-evict-small", "--device", "{d}/l2.bin", "--plant", "everything"));
        cases.add(refused("crash-images on a file of the user's", FILE, "exists", "crash-images",
            "pr90-evict-small", "--device", "{d}/file"));
        cases.add(refused("crash-images beside a file of the user's named DEVICE.acks", dir -> {
            Files.writeString(dir.resolve("l2.bin.acks"), "a file of the user's\n");
            return null;
        }, "exists", "crash-images", "pr90-evict-small", "--device", "{d}/l2.bin"));
        cases.add(refused("crash-images in a directory that does not exist", dir -> null, "does not exist",
            "crash-images", "pr90-evict-small", "--device", "{d}/none/l2.bin"));
        cases.add(refused("crash-images --from-record with --device", dir -> null, "excludes", "crash-images",
            "pr90-evict-small", "--device", "{d}/l2.bin", "--from-record", "{d}"));
        cases.add(refused("crash-images --from-record of a directory without a record", dir -> null, "record.txt",
            "crash-images", "pr90-evict-small", "--from-record", "{d}"));
        cases.add(refused("crash-images --keep-record a file of the user's", FILE, "--keep-record", "crash-images",
            "pr90-evict-small", "--device", "{d}/l2.bin", "--keep-record", "{d}/file"));
    }
}
