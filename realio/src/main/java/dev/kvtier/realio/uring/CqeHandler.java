package dev.kvtier.realio.uring;

/** Receives completion queue entries as they are reaped, without allocating. */
@FunctionalInterface
public interface CqeHandler {
    /** One CQE: the {@code user_data} of its SQE and the result (bytes, or -errno). */
    void onCqe(long userData, int result);
}
