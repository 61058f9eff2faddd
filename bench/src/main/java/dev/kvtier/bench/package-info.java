/**
 * JMH benchmarks of kvtier's hot paths and of whole runs, and {@link dev.kvtier.bench.BenchMain}, which runs them and
 * prints one table ({@code ./kvtier bench}).
 *
 * <p>Hot paths: the event loop's dispatch ({@link dev.kvtier.bench.EventLoopBench}), each invariant checker family
 * over a recorded event stream ({@link dev.kvtier.bench.CheckerBench}), the event digest and the hash functions under
 * it ({@link dev.kvtier.bench.DigestBench}), the canonical codec ({@link dev.kvtier.bench.CodecBench}), the
 * simulator's provenance memory ({@link dev.kvtier.bench.ProvenanceBench}) and the L2 directory's look-ups
 * ({@link dev.kvtier.bench.DirectoryBench}). Whole runs: {@link dev.kvtier.bench.EndToEndBench}, one per bundled
 * scenario, every checker and the digest on, in events per second.
 *
 * <p>Benchmarks report figures; they are not timed tests and are not part of {@code ./kvtier test}. Streams are
 * recorded once per fork from a seeded run ({@link dev.kvtier.bench.Recording}), so every fork measures the same
 * events.
 */
package dev.kvtier.bench;
