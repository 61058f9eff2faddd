/**
 * The tiered store: grouped store and grouped load as parked continuations ({@link dev.kvtier.core.store.StoreOp},
 * {@link dev.kvtier.core.store.LoadOp}) over parts that each own one job and its state.
 *
 * <ul>
 *   <li>{@link dev.kvtier.core.store.TieredStore}: the pump and its inputs. It owns only what sequences the
 *       operations: the ready queue, the operations waiting for memory, the drain waiters.</li>
 *   <li>{@code l1.L1Cache} (in the {@code l1} package): the pool, the entries, the policy and admission.</li>
 *   <li>{@link dev.kvtier.core.store.IoQueue}: I/O ids, both devices, the FIFO bounded by {@code concurrentIos},
 *       the in-flight maps and the routing of every completion; {@link dev.kvtier.core.store.IndexDeviceIo} is the
 *       index's way through it.</li>
 *   <li>{@link dev.kvtier.core.store.WriteBatches}: the L2 write path over
 *       {@link dev.kvtier.core.store.WriteBatch}es, which own their transitions (open, sealed, submitted, done) and
 *       are indexed by {@link dev.kvtier.core.store.PendingWrites}.</li>
 *   <li>{@link dev.kvtier.core.store.CommitPipeline}: both commit modes; durable commits wait for their writes,
 *       share a data flush, are logged and only then published.</li>
 *   <li>{@code l2.Checksums} (in the {@code l2} package): per-slot checksums, recorded on store and verified on
 *       read.</li>
 *   <li>{@link dev.kvtier.core.store.ActiveLoads}: loads in progress and their reads, for superseded promotions and
 *       revoked leases.</li>
 * </ul>
 *
 * <p>Operations get the parts through {@link dev.kvtier.core.store.Parts} and call them directly; the public surface
 * of the package is the tiered store's inputs and its inspection methods (for checkers, tests and replay's state dump).
 */
package dev.kvtier.core.store;
