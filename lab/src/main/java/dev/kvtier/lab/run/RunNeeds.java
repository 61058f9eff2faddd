package dev.kvtier.lab.run;

import com.sun.management.OperatingSystemMXBean;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.workload.WorkloadDriver;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.scenarios.Scenario;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The memory a run needs, checked against the machine's before the run starts (and before any file is created): in
 * real mode the native memory the run maps and touches (L1 pool, staging, the engine's KV, the index buffer), against
 * the machine's physical memory (or its container's limit); in virtual mode an estimate of the heap (the simulated
 * index device's bytes, the ring, the requests in flight), against the JVM's {@code -Xmx}. A run that still runs out
 * of memory exits 3 with one line ({@link Main}).
 */
public final class RunNeeds {
    /** Heap a virtual run needs besides what grows with the scenario. */
    private static final long VIRTUAL_BASE_BYTES = 128L << 20;
    /** Heap per ring slot (the ring, the directory model, the checkers), generously. */
    private static final long BYTES_PER_SLOT = 96;
    /** Heap per block of a request in flight (its keys, spans and staging in events and checkers), generously. */
    private static final long BYTES_PER_BLOCK_IN_FLIGHT = 256;

    private RunNeeds() {}

    /** Null, or one line saying how much memory the run needs and how much there is. */
    public static String check(final Scenario sc, final RunMode mode) {
        return switch (mode) {
            case REAL -> real(sc);
            case VIRTUAL -> virtual(sc);
        };
    }

    private static String real(final Scenario sc) {
        final CoreConfig c = sc.spec().core();
        final long need = RealRun.memoryBytes(sc.spec());
        final long machine = physicalBytes();
        if (need <= machine) {
            return null;
        }
        return String.format(Locale.ROOT, "the run needs %s of native memory (L1 pool %s from core.l1Bytes, staging "
            + "%s, the engine's KV for workload.concurrency %d: %s, the index buffer and 64 MiB), more than this "
            + "machine's %s; lower core.l1Bytes (or l1Fraction) or workload.concurrency", size(need),
            size(c.l1PoolBytes()), size(c.stagingPoolBytes()), sc.spec().workload().concurrency(),
            size(WorkloadDriver.gpuBytes(sc.spec().workload(), c.slotBytes())), size(machine));
    }

    private static String virtual(final Scenario sc) {
        final CoreConfig c = sc.spec().core();
        final long index = KvServer.indexLayout(c).deviceBytes();
        final long inFlight = Math.min((long) sc.spec().workload().concurrency() * sc.spec().workload()
            .blocksPerPrompt(), sc.spec().workload().engineKvBlocks());
        final long need = VIRTUAL_BASE_BYTES + 3 * index + BYTES_PER_SLOT * c.l2Slots()
            + BYTES_PER_BLOCK_IN_FLIGHT * inFlight;
        final long heap = Runtime.getRuntime().maxMemory();
        if (need <= heap) {
            return null;
        }
        return String.format(Locale.ROOT, "the run needs about %s of heap (an index of %s for %d ring slots, %d "
            + "blocks in flight: workload.concurrency x blocks a prompt), more than this JVM's %s; lower those, or "
            + "give the JVM more with KVTIER_JAVA_OPTS=-Xmx<size>", size(need), size(index), c.l2Slots(), inFlight,
            size(heap));
    }

    /** The machine's physical memory, or its container's limit (the JDK reads cgroups). */
    public static long physicalBytes() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    }

    public static String size(final long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
            : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }
}
