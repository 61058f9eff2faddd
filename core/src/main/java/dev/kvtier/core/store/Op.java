package dev.kvtier.core.store;

/**
 * A parked-or-running operation of the tiered store, as a continuation: {@link #step} advances as far as it can and
 * returns when the operation is finished or has registered itself to be resumed (on memory, or on a pending write).
 */
abstract class Op {
    final long id;
    /** True while the operation is in the tiered store's memory queue (it is there once at most). */
    boolean waitingForMemory;

    Op(final long id) {
        this.id = id;
    }

    /** Advance; never blocks. */
    abstract void step();
}
