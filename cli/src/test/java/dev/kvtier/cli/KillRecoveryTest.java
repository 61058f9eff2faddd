package dev.kvtier.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.workload.WorkloadDriver;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.files.HeaderLayout;
import dev.kvtier.realio.loop.RealLoop;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import dev.kvtier.realio.run.DevicePair;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Invariant 15 on a real disk: a child JVM ({@link CrashWorker}) runs a real-mode workload that keeps writing, and is
 * killed with SIGKILL ({@code ProcessHandle.destroyForcibly}) once it has acknowledged {@link #COMMITS_BEFORE_KILL}
 * commits, in the middle of its writes. This JVM then opens a core on the same two files with {@code recover} and
 * checks: every recovered key either loads exactly its own bytes or fails its load (CORRUPT, READ_ERROR), never a
 * wrong byte (both commit modes); and in durable mode every acknowledged key that had not left the ring is found by
 * lookup, at the same allocation, and loads exactly its bytes.
 *
 * <p>SIGKILL loses what the process held, not what the kernel accepted; a power loss (volatile caches) is the
 * simulator's crash sweep.
 */
class KillRecoveryTest {
    private static final int COMMITS_BEFORE_KILL = 600;
    /** Acknowledged allocations still in the ring when the kill is sent. */
    private static final int LIVE_BEFORE_KILL = 32;
    private static final Duration WORKER_LIMIT = Duration.ofSeconds(60);
    private static final long LOOP_TIMEOUT_NS = 10_000_000_000L;
    private static final List<String> JVM_FLAGS = List.of("-ea", "-Xmx512m", "-XX:+UseSerialGC",
        "--enable-native-access=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "-Dchronicle.analytics.disable=true");

    @TempDir(factory = TargetTempDir.class)
    Path dir;

    /** What the worker said before it died. */
    private static final class Heard {
        final Map<Long, PrefixKey> committed = new LinkedHashMap<>();
        final Map<Long, PrefixKey> evicted = new LinkedHashMap<>();
        boolean finished;
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "durable"})
    void shouldNeverServeAWrongByteAndNeverLoseADurableCommitAfterSigkill(final String mode) throws Exception {
        final Path scenario = dir.resolve("crash-" + mode + ".toml");
        Files.writeString(scenario, CrashWorker.scenario(mode));
        final Path data = dir.resolve("l2.bin");
        final Path index = dir.resolve("l2.bin.index");
        final Heard heard = runAndKill(scenario, data, index);
        assertTrue(!heard.finished, "the worker was killed mid-run, not finished");
        assertTrue(heard.committed.size() >= COMMITS_BEFORE_KILL, "commits heard: " + heard.committed.size());
        assertTrue(!heard.evicted.isEmpty(), "the ring wrapped before the kill");
        final CoreConfig config = ScenarioLoader.load(scenario.toString(), List.of()).spec().core();
        assertEquals(CommitMode.valueOf(mode.toUpperCase(java.util.Locale.ROOT)), config.commitMode());
        verifyRecovered(config, data, index, heard);
    }

    private Heard runAndKill(final Path scenario, final Path data, final Path index) throws Exception {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_FLAGS);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CrashWorker.class.getName(),
            scenario.toString(), data.toString(), index.toString(), "auto"));
        final Path err = dir.resolve("worker.err");
        final Process worker = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        final List<String> lines = new CopyOnWriteArrayList<>();
        final AtomicInteger commits = new AtomicInteger();
        // Allocations acknowledged and not evicted since: the kill waits for some, so the durable check is not empty
        // (lanes run ahead of durable commits, so the ring can lap every acknowledged key for a while).
        final java.util.Set<String> live = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final AtomicBoolean eof = new AtomicBoolean();
        final Thread reader = Thread.ofPlatform().daemon().name("crash-worker-stdout").start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(worker.getInputStream(),
                StandardCharsets.US_ASCII))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                    if (line.startsWith("COMMIT ")) {
                        commits.incrementAndGet();
                        live.add(line.substring(line.lastIndexOf(' ') + 1));
                    } else if (line.startsWith("EVICT ")) {
                        live.remove(line.substring(line.lastIndexOf(' ') + 1));
                    }
                }
            } catch (final IOException e) {
                lines.add("READ-ERROR " + e);
            } finally {
                eof.set(true);
            }
        });
        try {
            await().atMost(WORKER_LIMIT).pollInterval(Duration.ofMillis(5))
                .until(
                    () -> (commits.get() >= COMMITS_BEFORE_KILL && live.size() >= LIVE_BEFORE_KILL)
                        || !worker.isAlive());
            assertTrue(worker.isAlive(), () -> "the worker ended early: " + tail(lines) + " / " + read(err));
        } finally {
            // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe and lose the
            // lines the worker wrote before it died (an EVICT line lost would make the check expect an evicted key).
            worker.toHandle().destroyForcibly();
        }
        assertTrue(worker.waitFor(10, TimeUnit.SECONDS), "the killed worker exited");
        await().atMost(Duration.ofSeconds(10)).untilTrue(eof);
        reader.join();
        return parse(lines);
    }

    private static Heard parse(final List<String> lines) {
        final Heard h = new Heard();
        for (final String line : lines) {
            final String[] f = line.split(" ");
            switch (f[0]) {
                case "COMMIT" -> h.committed.put(Long.parseLong(f[3]), key(f));
                case "EVICT" -> h.evicted.put(Long.parseLong(f[3]), key(f));
                case "FINISHED" -> h.finished = true;
                case "OPENED" -> {
                    // the index was formatted
                }
                default -> throw new AssertionError("unexpected worker line: " + line);
            }
        }
        return h;
    }

    private static PrefixKey key(final String[] f) {
        return new PrefixKey(Long.parseLong(f[1]), Long.parseLong(f[2]));
    }

    /** Opens a core on the killed worker's files with recover, and loads every recovered and every expected key. */
    private static void verifyRecovered(final CoreConfig config, final Path dataPath, final Path indexPath,
                                        final Heard heard) {
        final List<CoreEvent.ChunkRecovered> recovered = new ArrayList<>();
        try (NativeMemory memory = new NativeMemory(config.l1PoolBytes() + RealRun.indexBufferBytes(config)
            + config.slotBytes());
             PolledDevice data = Devices.open(LibcKernel.create(), new DeviceFile(dataPath, HeaderLayout.BYTES,
                 config.l2Bytes()), config.concurrentIos(), IoChoice.AUTO, memory, System.err).orThrow();
             PolledDevice index = Devices.open(LibcKernel.create(), new DeviceFile(indexPath, HeaderLayout.BYTES,
                 RealRun.indexDeviceBytes(config)), 1, IoChoice.AUTO, memory, System.err).orThrow()) {
            final KvServer server = new KvServer(config, memory, data, index, e -> {
                if (e instanceof CoreEvent.ChunkRecovered r) {
                    recovered.add(r);
                }
            });
            final RealLoop loop = RealLoop.over(new DevicePair(data, index), server::onIoComplete);
            final String[] error = {"not opened"};
            final AtomicBoolean opened = new AtomicBoolean();
            server.open(true, e -> {
                error[0] = e;
                opened.set(true);
            });
            assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(opened::get, LOOP_TIMEOUT_NS));
            assertNull(error[0], "the index opens");
            assertTrue(!recovered.isEmpty(), "the index held committed keys");
            final NativeRegion dest = memory.allocate("dest", config.slotBytes());
            final long[] loadId = {1};
            int loadedOk = 0;
            int failed = 0;
            for (final CoreEvent.ChunkRecovered r : recovered) {
                assertEquals(1, r.slotCount(), "one slot a key");
                final List<AllocationRef> found = server.lookup(r.modelId(), List.of(r.key())).prefix();
                if (found.isEmpty()) {
                    continue; // evicted by an earlier load of this check that failed its checksum
                }
                final LoadResult res = load(server, loop, found.getFirst(), dest, loadId[0]++, config);
                if (res.ok()) {
                    assertEquals(-1, memory.firstMismatch(dest, 0, config.slotBytes(),
                        WorkloadDriver.tagOf(r.key())), "recovered key " + r.key() + " loaded another key's bytes");
                    loadedOk++;
                } else {
                    assertTrue(res.failure() == LoadFailure.CORRUPT || res.failure() == LoadFailure.READ_ERROR,
                        "a recovered key's load fails only for its bytes: " + res);
                    failed++;
                }
            }
            int checked = 0;
            if (config.commitMode() == CommitMode.DURABLE) {
                checked = verifyDurable(server, loop, memory, dest, heard, config, loadId);
                assertTrue(checked > 0, "some acknowledged keys were still in the ring");
            }
            System.out.printf("%s: heard %d commits and %d evictions; recovered %d keys: %d loaded their bytes, %d "
                + "failed their check; %d acknowledged durable keys found%n", config.commitMode(),
                heard.committed.size(), heard.evicted.size(), recovered.size(), loadedOk, failed, checked);
        }
    }

    /** Every acknowledged key that did not leave the ring is there, at its allocation, with its bytes. */
    private static int verifyDurable(final KvServer server, final RealLoop loop, final NativeMemory memory,
                                     final NativeRegion dest, final Heard heard, final CoreConfig config,
                                     final long[] loadId) {
        int checked = 0;
        for (final Map.Entry<Long, PrefixKey> c : heard.committed.entrySet()) {
            if (heard.evicted.containsKey(c.getKey())) {
                continue;
            }
            final List<AllocationRef> found = server.lookup(1, List.of(c.getValue())).prefix();
            assertEquals(1, found.size(), "acknowledged durable key " + c.getValue() + " is found");
            assertEquals(c.getKey(), found.getFirst().allocationId(), "at its allocation");
            final LoadResult res = load(server, loop, found.getFirst(), dest, loadId[0]++, config);
            assertTrue(res.ok(), "acknowledged durable key " + c.getValue() + " loads: " + res);
            assertEquals(-1, memory.firstMismatch(dest, 0, config.slotBytes(), WorkloadDriver.tagOf(c.getValue())),
                "acknowledged durable key " + c.getValue() + " has its bytes");
            checked++;
        }
        return checked;
    }

    private static LoadResult load(final KvServer server, final RealLoop loop, final AllocationRef ref,
                                   final NativeRegion dest, final long loadId, final CoreConfig config) {
        final LoadResult[] result = new LoadResult[1];
        server.load(loadId, List.of(LoadRange.whole(ref, config.slotBytes(), 0)), dest, r -> result[0] = r);
        assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(() -> result[0] != null, LOOP_TIMEOUT_NS));
        return result[0];
    }

    private static String tail(final List<String> lines) {
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file);
        } catch (final IOException e) {
            return "(no stderr: " + e + ")";
        }
    }
}
