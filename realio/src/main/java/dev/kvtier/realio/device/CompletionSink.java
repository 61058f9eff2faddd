package dev.kvtier.realio.device;

/** Receives a device's completions without allocating: the request's id and its result (bytes, or -errno). */
@FunctionalInterface
public interface CompletionSink {
    void complete(long ioId, long result);
}
