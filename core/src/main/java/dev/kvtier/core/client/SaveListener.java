package dev.kvtier.core.client;

import dev.kvtier.core.value.AllocationRef;
import java.util.List;

/** What a client's caller (the engine, or a workload driver) hears about one request's save. */
public interface SaveListener {
    /** All the request's KV is in staging: the engine may reuse its blocks. Called exactly once. */
    void released(long requestId);

    /** Every staging batch returned and the accepted keys were committed. Called exactly once, after released. */
    void committed(long requestId, List<AllocationRef> accepted, List<AllocationRef> rejected);
}
