package dynbench;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * Stands in for {@code new FileOutputStream(FileDescriptor.out)} in judged programs, where the judge's source
 * rewrite spells it (the fast-output idiom, often wrapped in a PrintWriter or made System.out): the JVM's real
 * standard output is not the test's (the runner replies on a channel of its own and fd 1 goes to /dev/null), so
 * the bytes written here go where System.out's go, into the running test's stdout. A FileOutputStream, so that
 * the program compiles as written; any other route to fd 1 still reaches /dev/null.
 */
public final class Stdout extends FileOutputStream {
    private volatile boolean closed;

    public Stdout() {
        super(FileDescriptor.err);  // never written to or closed: every write and close is this class's own
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("Stream Closed");  // as a closed FileOutputStream says
        }
        Runner.stdout.write(b, off, len);
    }

    @Override
    public void flush() {
        // nothing buffered here: the recorder holds every byte as it is written
    }

    @Override
    public void close() {
        closed = true;
    }
}
