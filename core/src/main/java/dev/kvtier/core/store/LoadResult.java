package dev.kvtier.core.store;

import dev.kvtier.core.event.CoreEvent.LoadFailure;

/**
 * The answer to a grouped load.
 *
 * @param loadId   the load
 * @param failure  null when every byte was copied to the destination; otherwise why not (the engine recomputes)
 * @param bytes    bytes asked for
 * @param hitBytes bytes served from L1
 */
public record LoadResult(long loadId, LoadFailure failure, long bytes, long hitBytes) {
    public boolean ok() {
        return failure == null;
    }
}
