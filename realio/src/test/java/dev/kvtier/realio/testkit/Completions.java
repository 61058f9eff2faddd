package dev.kvtier.realio.testkit;

import static org.awaitility.Awaitility.await;

import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.PolledDevice;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Collects a device's completions (each id at most once) and waits for them with Awaitility, polling on the
 * test thread (the devices are confined to the thread that opened them).
 */
public final class Completions implements CompletionSink {
    private final Map<Long, Long> results = new LinkedHashMap<>();

    @Override
    public void complete(final long ioId, final long result) {
        if (results.put(ioId, result) != null) {
            throw new AssertionError("completion delivered twice for I/O " + ioId);
        }
    }

    public Map<Long, Long> results() {
        return results;
    }

    public long result(final long ioId) {
        final Long r = results.get(ioId);
        if (r == null) {
            throw new AssertionError("no completion for I/O " + ioId);
        }
        return r;
    }

    /** Flushes and reaps until {@code count} completions in all have arrived (at most 20 s). */
    public void awaitCount(final PolledDevice device, final int count) {
        device.flush();
        await().pollInSameThread().atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(1)).until(() -> {
                device.poll(this, 1024);
                if (results.size() < count) {
                    device.await(1_000_000L);
                    device.poll(this, 1024);
                }
                return results.size() >= count;
            });
    }
}
