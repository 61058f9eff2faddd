package dev.kvtier.harness.workload;

import dev.kvtier.core.client.ServerTransport;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.server.KvServer;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The engine scheduler's synchronous calls to the store (docs/design/ENGINE-MODEL.md, "Schedule"): each goes through
 * the transport, queues on the server thread behind whatever the server is doing, and the step goes on only with its
 * reply. Allocations are made as the {@link ConnectorCalls} shape them, one call after another. Not thread-safe: it
 * runs on the loop's thread.
 */
final class StoreCalls {
    private final ServerTransport transport;
    private final KvServer server;
    private final ConnectorCalls connector;

    StoreCalls(final ServerTransport transport, final KvServer server, final ConnectorCalls connector) {
        this.transport = transport;
        this.server = server;
        this.connector = connector;
    }

    /** Claims blocks {@code [from, to)} of {@code r} (the ones another writer owns are skipped), then {@code next}. */
    void allocate(final EngineRequest r, final int from, final int to, final Runnable next) {
        if (from >= to) {
            next.run();
            return;
        }
        allocate(r, connector.allocations(r.keys, from, to), 0, next);
    }

    /** Makes allocation call {@code index} of {@code runs}, then the next, then {@code next}. */
    private void allocate(final EngineRequest r, final List<ConnectorCalls.Run> runs, final int index,
                          final Runnable next) {
        final ConnectorCalls.Run run = runs.get(index);
        final int model = connector.model(r);
        call(() -> server.allocate(r.id, model, run.keys(), run.slotsPerKey()), results -> {
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i) instanceof AllocationResult.Claimed c) {
                    r.claims.put(run.fromBlock() + i * run.slotsPerKey(), c.ref());
                    connector.claimed(r, c.ref());
                }
            }
            if (index + 1 < runs.size()) {
                allocate(r, runs, index + 1, next);
            } else {
                next.run();
            }
        });
    }

    /** A synchronous store call: {@code onServer} runs on the server thread; the step goes on with its reply. */
    <T> void call(final Supplier<T> onServer, final Consumer<T> onReply) {
        transport.toServer(-1, () -> {
            final T value = onServer.get();
            transport.toClient(-1, () -> onReply.accept(value));
        });
    }
}
