package dev.kvtier.bench;

import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The L2 directory at pr90-evict's size (102,400 one-slot keys: 200 prompts of 512 keys on a ring of 107,520 slots):
 * a whole prompt's prefix look-up, and a prompt's allocation and commit on a full ring (every allocation evicts).
 * Per key; events go to a sink that drops them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class DirectoryBench {
    static final int PROMPTS = 200;
    static final int KEYS = 512;
    static final int SLOTS = 107_520;
    private L2Directory directory;
    private final List<List<PrefixKey>> prompts = new ArrayList<>();
    private long nextPrompt;
    private int lookupAt;

    @Setup(Level.Trial)
    public void fill() {
        directory = new L2Directory(2_359_296L, SLOTS, event -> {});
        for (int p = 0; p < PROMPTS; p++) {
            prompts.add(keys(p));
            allocateAndCommit(prompts.get(p), p);
        }
        nextPrompt = PROMPTS;
    }

    private static List<PrefixKey> keys(final long prompt) {
        final List<PrefixKey> keys = new ArrayList<>(KEYS);
        for (int k = 0; k < KEYS; k++) {
            keys.add(new PrefixKey(prompt * 0x9E3779B97F4A7C15L + k, (prompt << 20) ^ (k * 0xC2B2AE3D27D4EB4FL)));
        }
        return List.copyOf(keys);
    }

    private int allocateAndCommit(final List<PrefixKey> keys, final long requestId) {
        final List<AllocationRef> refs = new ArrayList<>(keys.size());
        for (final AllocationResult r : directory.allocate(requestId, 1, keys, 1)) {
            if (r instanceof AllocationResult.Claimed c) {
                refs.add(c.ref());
            }
        }
        return directory.commit(refs);
    }

    @Benchmark
    @OperationsPerInvocation(KEYS)
    public int lookupPrompt() {
        lookupAt = (lookupAt + 1) % PROMPTS;
        return directory.lookup(1, prompts.get(lookupAt)).prefix().size();
    }

    @Benchmark
    @OperationsPerInvocation(KEYS)
    public int allocateAndCommitPrompt() {
        final long p = nextPrompt++;
        return allocateAndCommit(keys(p), p);
    }
}
