package dev.kvtier.cli;

import static dev.kvtier.cli.BadInput.refused;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;

/**
 * Bad scenarios for the corpus: TOML syntax errors, a wrong structure, every numeric key of the tiny scenario with
 * values of the wrong type or out of range, names that would escape a directory, profiles, and the same through
 * {@code --set}; mistyped names, whose message says the name meant (issue 35). Each is refused with exit 2 before
 * anything is created; a bad {@code [swarm]} value before any seed runs.
 */
final class CorpusScenarios {
    private static final String TINY = TinyScenario.text("corpus", "");

    private CorpusScenarios() {}

    static List<BadInput> all() {
        final List<BadInput> cases = new ArrayList<>();
        syntax(cases);
        structure(cases);
        values(cases);
        names(cases);
        profiles(cases);
        overrides(cases);
        didYouMean(cases);
        swarm(cases);
        return cases;
    }

    /** A run of the tiny scenario changed by {@code edit}. */
    private static BadInput edited(final String name, final UnaryOperator<String> edit, final String mentions) {
        final String text = edit.apply(TINY);
        if (text.equals(TINY)) {
            throw new IllegalStateException("the edit of case '" + name + "' changed nothing");
        }
        return refused("scenario: " + name, dir -> {
            Files.writeString(dir.resolve("s.toml"), text);
            return null;
        }, mentions, "run", "{d}/s.toml");
    }

    /** The tiny scenario with its first line {@code key = ...} set to {@code value}. */
    private static UnaryOperator<String> set(final String key, final String value) {
        return t -> t.replaceFirst("(?m)^" + key + " = .*$", Matcher.quoteReplacement(key + " = "
            + value));
    }

    private static void syntax(final List<BadInput> cases) {
        cases.add(edited("unterminated table header", t -> t.replace("[model]", "[model"), "s.toml:"));
        cases.add(edited("unterminated string", t -> t.replace("name = \"tiny\"", "name = \"tiny"), "s.toml:"));
        cases.add(edited("a key without a value", t -> t.replace("layers = 16", "layers ="), "s.toml:"));
        cases.add(edited("a value without a key", t -> t.replace("layers = 16", "= 16"), "s.toml:"));
        cases.add(edited("a duplicate key", t -> t.replace("layers = 16", "layers = 16\nlayers = 8"), "s.toml:"));
        cases.add(edited("a duplicate table", t -> t + "[model]\nname = \"x\"\n", "s.toml:"));
        cases.add(edited("a bare word", t -> t.replace("[core]", "[core]\nhello"), "s.toml:"));
        cases.add(edited("an unterminated array", t -> t + "[sim]\ndevice = [1, 2\n", "s.toml:"));
        cases.add(edited("a bad escape", t -> t.replace("name = \"tiny\"", "name = \"ti\\qny\""), "s.toml:"));
        cases.add(edited("an inline table left open", t -> t + "x = {a = 1\n", "s.toml:"));
        cases.add(edited("a number with two dots", t -> t.replace("l1Fraction = 0.5", "l1Fraction = 0.5.1"),
            "s.toml:"));
        cases.add(edited("a line of binary junk", t -> t.replace("[core]", "[core]\n\u0001\u0002\u0003"), "s.toml"));
    }

    private static void structure(final List<BadInput> cases) {
        cases.add(edited("an unknown table", t -> t + "[bogus]\nx = 1\n", "bogus"));
        cases.add(edited("an unknown key in [scenario]", t -> t.replace("name = \"corpus\"",
            "name = \"corpus\"\ncolour = 1"), "colour"));
        cases.add(edited("an unknown key in [model]", t -> t.replace("layers = 16", "layers = 16\nexperts = 8"),
            "experts"));
        cases.add(edited("an unknown key in [workload]", t -> t.replace("prompts = 6", "prompts = 6\nusers = 3"),
            "users"));
        cases.add(edited("an unknown key in [engine]", t -> t.replace("stepFixedNs = 0", "stepFixedNs = 0\ngpus = 2"),
            "gpus"));
        cases.add(edited("an unknown key in [[phase]]", t -> t.replace("requests = 6", "requests = 6\nrate = 3"),
            "rate"));
        cases.add(edited("an unknown key in [core]", t -> t + "turbo = true\n", "turbo"));
        cases.add(edited("an unknown key in [sim]", t -> t + "[sim]\nwarp = 9\n", "warp"));
        cases.add(edited("no [model] table", t -> t.replaceFirst("(?s)\\[model].*?\\[workload]", "[workload]"),
            "model"));
        cases.add(edited("no [scenario] table", t -> t.replace("[scenario]\nname = \"corpus\"\n", ""), "scenario"));
        cases.add(edited("no phase", t -> t.replaceAll("(?s)\\[\\[phase]].*?(?=\\[core])", ""), "phase"));
        cases.add(edited("a table given as a number", t -> t.replace("[core]\n", "core = 3\n[corex]\n"), "s.toml"));
        cases.add(edited("the moved key workload.firstTokenNs", t -> t.replace("prompts = 6",
            "prompts = 6\nfirstTokenNs = 1000"), "firstTokenNs"));
        cases.add(edited("the moved key workload.prefillNsPerToken", t -> t.replace("prompts = 6",
            "prompts = 6\nprefillNsPerToken = 1000"), "prefillNsPerToken"));
        cases.add(refused("scenario: an empty file", dir -> {
            Files.writeString(dir.resolve("s.toml"), "");
            return null;
        }, "s.toml", "run", "{d}/s.toml"));
        cases.add(refused("scenario: not UTF-8", dir -> {
            Files.write(dir.resolve("s.toml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, (byte) 0xc3});
            return null;
        }, "UTF-8", "run", "{d}/s.toml"));
        cases.add(refused("scenario: a directory", dir -> {
            Files.createDirectory(dir.resolve("s.toml"));
            return null;
        }, "directory", "run", "{d}/s.toml"));
        cases.add(refused("scenario: no such file", dir -> null, "no such scenario", "run", "{d}/nothing.toml"));
        cases.add(refused("scenario: no such library name", dir -> null, "library", "run", "pr90-evcit"));
        cases.add(refused("scenario: more than 512 KiB", dir -> {
            Files.writeString(dir.resolve("s.toml"), TINY + "#" + "x".repeat(600 << 10) + "\n",
                StandardCharsets.UTF_8);
            return null;
        }, "too large", "run", "{d}/s.toml"));
    }

    private static void values(final List<BadInput> cases) {
        final String[] positiveInts = {"kvHeads", "headDim", "layers", "blockTokens", "dtypeBytes", "prompts",
            "inputTokens", "concurrency", "requests"};
        for (final String key : positiveInts) {
            cases.add(edited(key + " = 0", set(key, "0"), key));
            cases.add(edited(key + " = -1", set(key, "-1"), key));
            cases.add(edited(key + " as a string", set(key, "\"8\""), key));
            cases.add(edited(key + " as a fraction", set(key, "1.5"), key));
            cases.add(edited(key + " beyond 64 bits", set(key, "99999999999999999999"), key));
            cases.add(edited(key + " too large", set(key, "2147483647"), key));
        }
        for (final String key : new String[] {"prefillNsPerToken", "stepFixedNs"}) {
            cases.add(edited(key + " = -1", set(key, "-1"), key));
            cases.add(edited(key + " as a boolean", set(key, "true"), key));
            cases.add(edited(key + " beyond 64 bits", set(key, "-99999999999999999999"), key));
            cases.add(edited(key + " of more than an hour", set(key, "3600000000001"), key));
        }
        for (final String key : new String[] {"l1Fraction", "l2Fraction"}) {
            cases.add(edited(key + " negative", set(key, "-0.5"), key));
            cases.add(edited(key + " as a string", set(key, "\"half\""), key));
            cases.add(edited(key + " as an array", set(key, "[0.5]"), key));
            cases.add(edited(key + " = 1e400", set(key, "1e400"), key));
        }
        cases.add(edited("stagingBatchBytes = 0", set("stagingBatchBytes", "0"), "stagingBatchBytes"));
        cases.add(edited("stagingBatchBytes negative", set("stagingBatchBytes", "-4096"), "stagingBatchBytes"));
        cases.add(edited("inputTokens below one block", set("inputTokens", "8"), "inputTokens"));
        cases.add(edited("a phase with a string for requests", t -> t.replaceFirst("requests = 6", "requests = \"6\""),
            "requests"));
        cases.add(edited("a phase order that does not exist", t -> t.replaceFirst("requests = 6",
            "requests = 6\norder = \"random\""), "order"));
        cases.add(edited("a slot beyond 64 bits", t -> t.replace("kvHeads = 1", "kvHeads = 65536").replace(
            "headDim = 64", "headDim = 65536").replace("layers = 16", "layers = 4096").replace("dtypeBytes = 2",
                "dtypeBytes = 8")
            .replace("blockTokens = 16", "blockTokens = 65536"), "64 bits"));
        cases.add(edited("a slot of more than a GiB", t -> t.replace("kvHeads = 1", "kvHeads = 2048").replace(
            "headDim = 64", "headDim = 1024"), "slot"));
        cases.add(edited("a ring whose index outgrows the index device", t -> t.replace("l2Fraction = 1.05",
            "l2Bytes = 1099511627776"), "index"));
        cases.add(edited("a liveness bound below one engine step", t -> t.replace("stepFixedNs = 0",
            "stepFixedNs = 20000000000") + "[sim]\nlivenessBoundSeconds = 10\n", "stepFixedNs"));
        cases.add(edited("a liveness bound of 0", t -> t + "[sim]\nlivenessBoundSeconds = 0\n",
            "livenessBoundSeconds"));
        cases.add(edited("a TTFT bound below one engine step", t -> t.replace("stepFixedNs = 0",
            "stepFixedNs = 20000000") + "[sim]\nttftBoundMs = 10\n", "ttftBoundMs"));
        cases.add(edited("a negative TTFT bound", t -> t + "[sim]\nttftBoundMs = -1\n", "ttftBoundMs"));
        cases.add(edited("a TTFT bound that is not a number", t -> t + "[sim]\nttftBoundMs = \"fast\"\n",
            "ttftBoundMs"));
    }

    private static void names(final List<BadInput> cases) {
        for (final String name : new String[] {"../escape", "a/b", "/abs", "", " ", ".hidden", "-dash", "a b",
            "x".repeat(81), "new\\nline"}) {
            cases.add(edited("scenario.name \"" + (name.length() > 20 ? name.substring(0, 20) + "..." : name) + "\"",
                t -> t.replace("name = \"corpus\"", "name = \"" + name + "\""), "name"));
        }
    }

    private static void profiles(final List<BadInput> cases) {
        cases.add(edited("an unknown device profile", t -> t + "[sim]\ndevice = \"floppy\"\n", "floppy"));
        cases.add(edited("an unknown host profile", t -> t + "[sim]\nhost = \"abacus\"\n", "abacus"));
        cases.add(refused("scenario: a device profile that is not TOML", dir -> {
            Files.writeString(dir.resolve("s.toml"), TINY + "[sim]\ndevice = \"dev.toml\"\n");
            Files.writeString(dir.resolve("dev.toml"), "name = \"d\"\nreadLatencyNs = \n");
            return null;
        }, "dev.toml", "run", "{d}/s.toml"));
        cases.add(refused("scenario: a device profile with a latency of more than an hour", dir -> {
            Files.writeString(dir.resolve("s.toml"), TINY + "[sim]\ndevice = \"dev.toml\"\n");
            Files.writeString(dir.resolve("dev.toml"), """
                name = "slow"
                readLatencyNs = 3600000000001
                writeLatencyNs = 1000
                flushLatencyNs = 1000
                readBytesPerSec = 1000000000
                writeBytesPerSec = 1000000000
                parallelism = 4
                """);
            return null;
        }, "readLatencyNs", "run", "{d}/s.toml"));
        cases.add(refused("scenario: a device profile missing a key", dir -> {
            Files.writeString(dir.resolve("s.toml"), TINY + "[sim]\ndevice = \"dev.toml\"\n");
            Files.writeString(dir.resolve("dev.toml"), "name = \"d\"\n");
            return null;
        }, "readLatencyNs", "run", "{d}/s.toml"));
        cases.add(refused("scenario: a device profile that is a directory", dir -> {
            Files.writeString(dir.resolve("s.toml"), TINY + "[sim]\ndevice = \"dev.toml\"\n");
            Files.createDirectory(dir.resolve("dev.toml"));
            return null;
        }, "dev.toml", "run", "{d}/s.toml"));
    }

    private static void overrides(final List<BadInput> cases) {
        final String[][] sets = {
            {"noequals", "key=value"},
            {"=3", "key=value"},
            {" =3", "key=value"},
            {"a.b.c=1", "table.key"},
            {"phase.9.requests=1", "no phase 9"},
            {"phase.-1.requests=1", "no phase -1"},
            {"phase.x.requests=1", "phase"},
            {"core.l1Fraction=abc", "l1Fraction"},
            {"core.unknownKey=1", "unknownKey"},
            {"nosuchtable.key=1", "nosuchtable"},
            {"workload.prompts=99999999999999999999", "64-bit"},
            {"workload.prompts=-5", "prompts"},
            {"workload.concurrency=0", "concurrency"},
            {"core.stagingBatchBytes=1000", "stagingBatchBytes"},
            {"scenario.name=../../etc", "name"},
        };
        for (final String[] s : sets) {
            cases.add(refused("--set " + s[0], BadInput.Setup.SCENARIO, s[1], "run", "{d}/s.toml", "--set", s[0]));
        }
    }

    /** Mistyped scenario names, files, tables, keys and presets: the one line names the one meant. */
    private static void didYouMean(final List<BadInput> cases) {
        cases.add(refused("a mistyped library scenario", dir -> null, "did you mean 'pr90-evict-small'?", "run",
            "pr90-evict-smal"));
        cases.add(refused("a library scenario as a .toml file", dir -> null, "did you mean 'pr90-evict-small'?",
            "explore", "pr90-evict-small.toml", "--seeds", "3"));
        cases.add(refused("a mistyped scenario file beside the one meant", BadInput.Setup.SCENARIO,
            "/s.toml'?", "run", "{d}/ss.toml"));
        cases.add(edited("a mistyped key in [core]", t -> t.replace("l1Fraction = 0.5", "l1Fractoin = 0.5"),
            "did you mean 'core.l1Fraction'?"));
        cases.add(edited("a mistyped key in [workload]", t -> t.replace("prompts = 6", "promts = 6"),
            "did you mean 'workload.prompts'?"));
        cases.add(edited("a mistyped table", t -> t.replace("[core]", "[coer]"), "did you mean 'core'?"));
        final String[][] sets = {
            {"core.l1Bytez=65536", "did you mean 'core.l1Bytes'?"},
            {"workload.promts=3", "did you mean 'workload.prompts'?"},
            {"wrkload.prompts=3", "did you mean 'workload'?"},
            {"model.preset=qwen3-8", "did you mean 'qwen3-8b'?"},
        };
        for (final String[] set : sets) {
            cases.add(refused("--set " + set[0] + " (mistyped)", BadInput.Setup.SCENARIO, set[1], "run",
                "{d}/s.toml", "--set", set[0]));
        }
    }

    /** Bad {@code [swarm]} values and keys: refused when the scenario loads, before any seed, naming the value. */
    private static void swarm(final List<BadInput> cases) {
        final String[][] swarms = {
            {"a value out of its key's range", "\"core.concurrentIos\" = [1, 0]", "'swarm.\"core.concurrentIos\"[1]'"},
            {"a fraction out of range", "\"core.l1Fraction\" = [0.5, 7000.0]", "'swarm.\"core.l1Fraction\"[1]'"},
            {"a choice that is none", "\"core.replacement\" = [\"lru\", \"lfu\"]", "'swarm.\"core.replacement\"[1]'"},
            {"a size that is not one", "\"core.l2Bytes\" = [\"lots\"]", "must be a size"},
            {"a key that names no key", "\"core.l1Bytez\" = [65536]", "did you mean 'core.l1Bytes'?"},
            {"a key in a mistyped table", "\"coer.l1Fraction\" = [0.5]", "did you mean 'core.l1Fraction'?"},
            {"a value that breaks another key", "\"faults.crashPoints\" = [0, 2]", "crashWithinEvents"},
            {"a phase that does not exist", "\"phase.5.requests\" = [2]", "no phase 5"},
        };
        for (final String[] w : swarms) {
            final BadInput.Setup setup = dir -> {
                Files.writeString(dir.resolve("s.toml"), TINY + "[swarm]\n" + w[1] + "\n");
                return null;
            };
            cases.add(refused("explore of a swarm with " + w[0], setup, w[2], "explore", "{d}/s.toml", "--seeds",
                "3"));
            cases.add(refused("run of a swarm with " + w[0], setup, w[2], "run", "{d}/s.toml"));
        }
        cases.add(refused("explore of a swarm value that a --set puts out of range", dir -> {
            Files.writeString(dir.resolve("s.toml"), TINY + "[swarm]\n\"workload.prefixGroups\" = [1, 3]\n");
            return null;
        }, "'swarm.\"workload.prefixGroups\"[1]' must be in [1, 2]", "explore", "{d}/s.toml", "--seeds", "3",
            "--set", "workload.prompts=2"));
        cases.add(refused("run --swarm of a swarm value that a --set puts out of range", dir -> {
            Files.writeString(dir.resolve("s.toml"), TINY + "[swarm]\n\"workload.prefixGroups\" = [1, 3]\n");
            return null;
        }, "'swarm.\"workload.prefixGroups\"[1]' must be in [1, 2]", "run", "{d}/s.toml", "--swarm", "--set",
            "workload.prompts=2"));
    }
}
