package dev.kvtier.lab.crash;

import dev.kvtier.realio.ffi.Kernel;
import dev.kvtier.realio.ffi.LibcKernel;

/**
 * A process's SIGKILL sent to itself with {@code kill(2)} (through the foreign-function API): the kernel ends the
 * process before the call returns, exactly as a SIGKILL from outside would, at the exact core event that pulled it.
 * The alternatives fall short: {@code ProcessHandle.current()} refuses to destroy itself, {@code Runtime.halt} is
 * an orderly exit (no signal, and the JVM's exit path still runs), {@code kill -9} through a child process lets the run
 * go on for the milliseconds the fork takes, and a parent killing on a marker line kills at a moment the pipe decides.
 */
final class SelfKill implements Runnable {
    private static final int SIGKILL = 9;
    /** Made up front: dying loads no class. */
    private final Kernel kernel = LibcKernel.create();
    private final long pid = ProcessHandle.current().pid();

    @Override
    public void run() {
        final int result = kernel.kill(pid, SIGKILL);
        throw new IllegalStateException("kill(" + pid + ", SIGKILL) returned " + result);
    }
}
