/**
 * Replay of a journal against a fresh core. {@link dev.kvtier.journal.replay.Replay} opens a journal, rebuilds the
 * {@code CoreConfig} from the header's knobs ({@link dev.kvtier.journal.replay.ReplayConfig}), wires a fresh
 * {@code KvServer} and {@code KvClient} to a memory that only keeps region sizes
 * ({@link dev.kvtier.journal.replay.ReplayMemory}) and a device that only records submissions
 * ({@link dev.kvtier.journal.replay.ReplayDevice}), then {@link dev.kvtier.journal.replay.Replayer} feeds the recorded
 * inputs in order and compares every event the fresh core emits with the recorded one. The core never reads the
 * bytes it moves, so nothing is copied; device completions are inputs with their recorded results, so a journal
 * recorded on a real disk replays in virtual time the same way.
 *
 * <p>Replay depends on {@code core} and on this module only: it is not the simulator and knows no workload.
 */
package dev.kvtier.journal.replay;
