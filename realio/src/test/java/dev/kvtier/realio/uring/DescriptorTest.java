package dev.kvtier.realio.uring;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DescriptorTest {

    @Test
    void shouldMatchTheKernelHeaderLayouts() {
        assertDoesNotThrow(ParamsDescriptor::check);
        assertDoesNotThrow(SqeDescriptor::check);
        assertDoesNotThrow(CqeDescriptor::check);
        assertDoesNotThrow(IovecDescriptor::check);
        assertDoesNotThrow(GeteventsArgDescriptor::check);
        assertEquals(120, ParamsDescriptor.layout().byteSize());
        assertEquals(64, SqeDescriptor.layout().byteSize());
        assertEquals(16, CqeDescriptor.layout().byteSize());
    }

    @Test
    void shouldFailTheCheckWhenAnOffsetIsWrong() {
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> LayoutCheck.offset(SqeDescriptor.layout(), "user_data", 40));
        assertTrue(e.getMessage().contains("io_uring_sqe.user_data is at 32"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> LayoutCheck.size(CqeDescriptor.layout(), 32));
    }
}
