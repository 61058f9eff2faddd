package dev.kvtier.core.port;

/** The operations a {@link Device} performs. */
public enum IoOp {
    READ,
    WRITE,
    FLUSH
}
