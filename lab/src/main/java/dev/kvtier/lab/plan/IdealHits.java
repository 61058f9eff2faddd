package dev.kvtier.lab.plan;

import dev.kvtier.harness.workload.Trace;
import java.util.HashMap;
import java.util.Map;

/**
 * A trace's ideal hit ratio: the input tokens an unbounded prefix cache of whole slots would serve, over the trace's
 * input tokens, with the requests taken one at a time in arrival order. A request hits the leading run of its slots
 * that earlier requests held; it then holds all of its whole slots. Slots are kept per trace block, as the most whole
 * slots any request had of that block (a block's slots are a prefix of it), so memory is one entry a distinct block.
 * The map serves point look-ups only.
 */
public final class IdealHits {
    private IdealHits() {}

    /** The ideal hit ratio of {@code trace} in slots of {@code slotTokens} tokens (0 for an empty trace). */
    public static double ratio(final Trace trace, final int slotTokens) {
        final Map<Long, Integer> held = new HashMap<>();
        long hitTokens = 0;
        for (int i = 0; i < trace.size(); i++) {
            final int input = trace.inputTokens(i);
            boolean leading = true;
            for (int b = 0; b < trace.blocks(i); b++) {
                final int slots = Math.min(trace.blockTokens(), input - b * trace.blockTokens()) / slotTokens;
                final long id = trace.blockId(i, b);
                final int had = held.getOrDefault(id, 0);
                if (leading) {
                    hitTokens += (long) Math.min(had, slots) * slotTokens;
                    leading = had >= slots;
                }
                if (slots > had) {
                    held.put(id, slots);
                }
            }
        }
        final long total = trace.totalInputTokens();
        return total == 0 ? 0 : (double) hitTokens / total;
    }
}
