package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kvtier crash-campaign} on this machine's disk: small campaigns (each kill a child JVM that recovers the kill
 * before it, then runs and dies of SIGKILL) hold in both commit modes, shard and merge to the whole, and clean up after
 * themselves; and the campaign fails, with the command that reruns the failing kill, when recovery is broken (the
 * index's log wiped between a kill and its recovery): the campaign can fail.
 */
class CrashCampaignTest {
    /** pr90-evict-small with 4 KiB slots (2,048 keys, 8 MiB of KV: one checkpoint a run) and a fast engine. */
    private static final List<String> SMALL = List.of("model.kvHeads=1", "model.headDim=64", "model.layers=1",
        "core.stagingBatchBytes=262144", "core.stagingPoolBytes=1048576", "engine.prefillNsPerToken=2000",
        "engine.stepFixedNs=1000000", "core.l1Fraction=0.5");

    @TempDir(factory = TargetTempDir.class)
    Path dir;

    private List<String> campaign(final String mode, final String... more) {
        return campaignIn("work", mode, more);
    }

    private List<String> campaignIn(final String work, final String mode, final String... more) {
        final List<String> args = new ArrayList<>(List.of("crash-campaign", "pr90-evict-small", "--device",
            dir.resolve("l2.bin").toString(), "--work", dir.resolve(work).toString()));
        for (final String s : SMALL) {
            args.addAll(List.of("--set", s));
        }
        args.addAll(List.of("--set", "core.commitMode=" + mode));
        args.addAll(List.of(more));
        return args;
    }

    private static long figure(final String out, final String regex) {
        final Matcher m = Pattern.compile(regex).matcher(out);
        assertTrue(m.find(), "no '" + regex + "' in:\n" + out);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "durable"})
    void shouldRecoverEveryKillOfASmallCampaignAndCleanUp(final String mode) {
        final CliRun run = CliRun.of(campaign(mode, "--kills", "5").toArray(String[]::new));
        assertEquals(ExitCodes.OK, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("measured the run"), run.out());
        assertEquals(5, figure(run.out(), "kills ([0-9]+) \\(where each run died"));
        assertEquals(0, figure(run.out(), "lost ([0-9,]+) \\(must be 0\\)"));
        assertEquals(0, figure(run.out(), "wrong bytes ([0-9,]+) \\(must be 0\\)"));
        assertEquals(0, figure(run.out(), "not a prefix of the log ([0-9,]+)"));
        assertTrue(figure(run.out(), "recovered ([0-9,]+) chunks") > 0, "some kill came after commits: " + run.out());
        assertTrue(run.out().contains("recovery (the core's open with recover, in a fresh process): p50 "), run.out());
        assertTrue(run.out().startsWith("crash campaign: pr90-evict-small, commit mode " + mode.toUpperCase(
            java.util.Locale.ROOT)), run.out());
        assertFalse(Files.exists(dir.resolve("l2.bin")), "the campaign deletes the device it created");
        assertFalse(Files.exists(dir.resolve("l2.bin.index")), "and its index");
        assertFalse(Files.exists(dir.resolve("work")), "and its working directory");
    }

    @Test
    void shouldFailWhenTheIndexLogIsWipedBetweenAKillAndItsRecovery() {
        final CliRun run = CliRun.of(campaign("durable", "--kills", "2", "--kill-at", "checkpoint.1+0", "--plant",
            "wipe-index-log").toArray(String[]::new));
        assertEquals(ExitCodes.INVARIANT, run.exitCode(), run.out() + run.err());
        assertTrue(figure(run.out(), "lost ([0-9,]+) \\(must be 0\\)") > 0, run.out());
        assertTrue(run.out().contains("FAILED: kill 1 at checkpoint.1+0"), run.out());
        assertTrue(run.out().contains("  lost: key "), run.out());
        assertTrue(run.out().contains("reproduce: ./kvtier crash-campaign pr90-evict-small --device "
            + dir.resolve("l2.bin") + " --from 1 --kills 1 --kill-at checkpoint.1+0"), run.out());
        assertEquals(1, figure(run.out(), "kills ([0-9]+) \\(where each run died"), "it stops at the first failure");
        assertTrue(Files.exists(dir.resolve("l2.bin.index")), "the failing kill's files are kept");
        assertTrue(Files.exists(dir.resolve("work").resolve("kill-1.acks")), "with its acknowledgement log");
        assertTrue(Files.exists(dir.resolve("work").resolve("kill-1.recovered.txt")), "and what recovery found");
    }

    @Test
    void shouldMergeShardsIntoTheWholeCampaign() {
        final Path summaries = dir.resolve("summaries");
        for (final String shard : List.of("0/2", "1/2")) {
            final CliRun run = CliRun.of(campaignIn("work-" + shard.charAt(0), "l1", "--kills", "4", "--shard", shard,
                "--summary", summaries + "/").toArray(String[]::new));
            assertEquals(ExitCodes.OK, run.exitCode(), run.out() + run.err());
            assertEquals(2, figure(run.out(), "kills ([0-9]+) \\(where each run died"), run.out());
        }
        final CliRun merged = CliRun.of("crash-campaign", "merge", summaries.toString());
        assertEquals(ExitCodes.OK, merged.exitCode(), merged.out() + merged.err());
        assertEquals(4, figure(merged.out(), "kills ([0-9]+) \\(where each run died"), merged.out());
        assertTrue(merged.out().contains("OK: every kill judged held"), merged.out());
        final CliRun half = CliRun.of("crash-campaign", "merge", summaries.resolve(
            "pr90-evict-small-kills-1-4-shard-0-of-2.json").toString());
        assertEquals(ExitCodes.BAD_INPUT, half.exitCode(), "a missing shard leaves kills uncovered: " + half.out());
        assertTrue(half.out().contains("kills not covered: 2 ([2, 4])"), half.out());
    }

    @Test
    void shouldRefuseWhatItCannotRunInOneLine() throws Exception {
        Files.writeString(dir.resolve("taken.bin"), "not kvtier's");
        final List<List<String>> bad = List.of(
            List.of("crash-campaign", "pr90-evict-small", "--device", dir.resolve("taken.bin").toString(), "--kills",
                "1"),
            List.of("crash-campaign", "pr90-evict-small", "--device", dir.resolve("a.bin").toString(), "--kills", "1",
                "--set", "engine.blocksPerKey=2"),
            List.of("crash-campaign", "pr90-evict-small", "--device", dir.resolve("a.bin").toString(), "--kills", "1",
                "--kill-at", "checkpoint+1"),
            List.of("crash-campaign", "pr90-evict-small", "--device", dir.resolve("a.bin").toString()));
        for (final List<String> args : bad) {
            final CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), args + ": " + run.out() + run.err());
            assertEquals(1, run.err().lines().count(), args + ": one line: " + run.err());
            assertTrue(run.err().startsWith("kvtier: "), run.err());
        }
        assertEquals("not kvtier's", Files.readString(dir.resolve("taken.bin")), "left as it was");
        assertFalse(Files.exists(dir.resolve("a.bin")), "nothing created");
    }
}
