/**
 * The wall-clock runner. {@link dev.kvtier.realio.loop.RealLoop} implements the core's Scheduler port on
 * {@code System.nanoTime} and drives one polled device on one thread: each step reads the clock, runs the timers
 * that are due, flushes the device's batch of submissions and hands its completions to a consumer (the composition
 * root wires that to {@code KvServer::onIoComplete}). The clock is read again before each task and each completion,
 * so what an input does is stamped when that input began. When a step did nothing it blocks in the device until a
 * completion or the next timer, instead of spinning. A caller waits for one asynchronous call into the core (open,
 * shutdown) with a {@link dev.kvtier.realio.loop.CallOutcome}.
 */
package dev.kvtier.realio.loop;
