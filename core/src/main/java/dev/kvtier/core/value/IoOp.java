package dev.kvtier.core.value;

/** The operations a {@code port.Device} performs. */
public enum IoOp {
    READ,
    WRITE,
    FLUSH
}
