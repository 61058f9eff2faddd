package dev.kvtier.core.l2;

import dev.kvtier.core.value.AllocationRef;
import java.util.List;

/** The longest committed prefix: one allocation for each of the first {@code prefixLength()} keys. */
public record LookupResult(List<AllocationRef> prefix) {
    public LookupResult {
        prefix = List.copyOf(prefix);
    }

    public int prefixLength() {
        return prefix.size();
    }
}
