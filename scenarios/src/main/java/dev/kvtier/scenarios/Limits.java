package dev.kvtier.scenarios;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.index.IndexLayout;
import dev.kvtier.sim.device.SimMetaDevice;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Limits a run would hit later, checked when the scenario loads (before any file is created), each with the key, the
 * value and the limit in its message: the scenario's name (it names files: no path separators), the size of its text
 * (a journal header holds it), the blocks of a prompt (a journal event lists every key of a prompt), the slot size,
 * the workload's KV in 64 bits, the index the ring needs (the simulator's index device holds at most
 * {@link SimMetaDevice#MAX_CAPACITY_BYTES}), and the GPU time of one engine step against the liveness bound.
 */
final class Limits {
    /** A scenario name: what explore, signoff and summaries put in file names. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");
    /** The longest scenario text (the journal header holds it with every knob, up to 1 MiB in all). */
    static final int TEXT_BYTES_MAX = 512 << 10;
    /** Full blocks of one prompt at most (an event lists a prompt's keys; the codec caps an event at 4 MiB). */
    static final int BLOCKS_PER_PROMPT_MAX = 1 << 16;
    /** The largest slot (one block's KV for all layers). */
    static final long SLOT_BYTES_MAX = 1L << 30;

    private Limits() {}

    /**
     * The text of the scenario file {@code p} (named {@code nameOrPath} in messages): a regular file of UTF-8 of at
     * most {@link #TEXT_BYTES_MAX}; else one line that says what it is instead, with the {@code library} names (and
     * the names close to it: {@link DidYouMean#scenario}).
     */
    static String read(final Path p, final String nameOrPath, final List<String> library) throws ScenarioException {
        if (!Files.isRegularFile(p)) {
            throw new ScenarioException(nameOrPath + ": " + (Files.isDirectory(p) ? "a directory, not a scenario file"
                : "no such scenario file") + ", and not a library scenario" + DidYouMean.scenario(nameOrPath, library)
                + " (one of " + String.join(", ", library) + ")");
        }
        try {
            if (Files.size(p) > TEXT_BYTES_MAX) {
                throw new ScenarioException(nameOrPath + ": " + Files.size(p) + " B is too large for a scenario (at "
                    + "most " + TEXT_BYTES_MAX + " B)");
            }
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (final CharacterCodingException e) {
            throw new ScenarioException(nameOrPath + ": not UTF-8 text (a scenario is a TOML file)");
        } catch (final IOException e) {
            throw new ScenarioException(nameOrPath + ": cannot read: " + e.getMessage());
        }
    }

    /** The text of the bundled scenario {@code name} (from the jar). */
    static String library(final String name) throws ScenarioException {
        try (InputStream in = ScenarioLoader.class.getResourceAsStream("library/" + name + ".toml")) {
            if (in == null) {
                throw new ScenarioException("library:" + name + ": missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new ScenarioException("library:" + name + ": cannot read: " + e.getMessage());
        }
    }

    static void name(final String source, final String name) throws ScenarioException {
        if (!NAME.matcher(name).matches()) {
            throw new ScenarioException(source + ": key 'scenario.name' must be 1 to 80 letters, digits, '.', '_' "
                + "or '-' (not starting with '.' or '-'; it names files), got \""
                + name.replace("\n", "\\n").replace("\r",
                    "\\r")
                + "\"");
        }
    }

    static void text(final String source, final String text) throws ScenarioException {
        final int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > TEXT_BYTES_MAX) {
            throw new ScenarioException(source + ": the scenario is " + bytes + " B, more than " + TEXT_BYTES_MAX
                + " B (a journal's header holds its text)");
        }
    }

    /** The slot size, the product of {@code factors} (kvHeads, headDim, 2, layers, blockTokens, dtypeBytes). */
    static void slot(final String source, final long[] factors) throws ScenarioException {
        long slotBytes = 1;
        try {
            for (final long f : factors) {
                slotBytes = Math.multiplyExact(slotBytes, f);
            }
        } catch (final ArithmeticException e) {
            throw new ScenarioException(source + ": table '[model]': the slot size (kvHeads x headDim x 2 x layers x "
                + "blockTokens x dtypeBytes) does not fit in 64 bits");
        }
        if (slotBytes > SLOT_BYTES_MAX) {
            throw new ScenarioException(source + ": table '[model]': a slot (kvHeads x headDim x 2 x layers x "
                + "blockTokens x dtypeBytes) of " + slotBytes + " B is more than " + SLOT_BYTES_MAX + " B");
        }
    }

    static void blocks(final String source, final int inputTokens, final int blockTokens) throws ScenarioException {
        final long blocks = inputTokens / blockTokens;
        if (blocks > BLOCKS_PER_PROMPT_MAX) {
            throw new ScenarioException(source + ": key 'workload.inputTokens' = " + inputTokens + " makes " + blocks
                + " blocks a prompt (inputTokens / model.blockTokens " + blockTokens + "), more than "
                + BLOCKS_PER_PROMPT_MAX + " (a journal event lists every key of a prompt)");
        }
    }

    /** The workload's KV bytes, prompts x blocks x slot, or an error when it does not fit in 64 bits. */
    static long kvBytes(final String source, final int prompts, final int blocks,
                        final long slotBytes) throws ScenarioException {
        try {
            return Math.multiplyExact(Math.multiplyExact((long) prompts, blocks), slotBytes);
        } catch (final ArithmeticException e) {
            throw new ScenarioException(source + ": the workload's KV (workload.prompts " + prompts + " x " + blocks
                + " blocks x " + slotBytes + " B) does not fit in 64 bits");
        }
    }

    /** What the loaded run needs: its ring's index, and liveness and TTFT bounds (0: none) above one engine step. */
    static void run(final String source, final CoreConfig core, final long stepFixedNs, final long livenessBoundNs,
                    final long ttftBoundNs) throws ScenarioException {
        index(source, core);
        requestTime(source, stepFixedNs, livenessBoundNs / 1_000_000_000L);
        if (ttftBoundNs > 0 && stepFixedNs > ttftBoundNs) {
            throw new ScenarioException(source + ": key 'engine.stepFixedNs' = " + stepFixedNs + " is more than "
                + "key 'sim.ttftBoundMs' = " + ttftBoundNs / 1_000_000 + " allows any request (every request waits at"
                + " least one step for its first token, cached or not)");
        }
    }

    static void index(final String source, final CoreConfig core) throws ScenarioException {
        final long bytes = IndexLayout.forSlots(core.l2Slots()).deviceBytes();
        if (bytes > SimMetaDevice.MAX_CAPACITY_BYTES) {
            throw new ScenarioException(source + ": key 'core.l2Bytes' = " + core.l2Bytes() + " makes " + core
                .l2Slots() + " ring slots, whose index needs " + bytes + " B, more than the "
                + SimMetaDevice.MAX_CAPACITY_BYTES
                + " B an index device holds; use fewer, larger slots or a smaller L2");
        }
    }

    /**
     * Every request, even one whose whole prompt is cached, waits at least one engine step ({@code stepFixedNs} of
     * GPU time) for its first token: a bound below it fails every run. (Prefill time depends on what is cached, so a
     * bound below a cold request's time is a finding, not an input error.)
     */
    static void requestTime(final String source, final long stepFixedNs,
                            final long livenessBoundSeconds) throws ScenarioException {
        if (stepFixedNs > livenessBoundSeconds * 1_000_000_000L) {
            throw new ScenarioException(source + ": key 'engine.stepFixedNs' = " + stepFixedNs + " is more than "
                + "key 'sim.livenessBoundSeconds' = " + livenessBoundSeconds + " allows any request (every request "
                + "waits at least one step for its first token, cached or not)");
        }
    }
}
