package dynbench;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.Objects;

/**
 * Stands in for {@code new FileOutputStream(FileDescriptor.out)} in judged programs, where the judge's source
 * rewrite spells it (the fast-output idiom, often wrapped in a PrintWriter or made System.out): the JVM's real
 * standard output is not the test's (the runner replies on a channel of its own and fd 1 goes to /dev/null), so
 * the bytes written here go where System.out's go, into the running test's stdout, and closing it closes that
 * stdout for the rest of the test, as closing fd 1 would. A FileOutputStream, so that the program compiles as
 * written, on the descriptor {@link #descriptor} gives (its channel and descriptor lead there); fd 1 reached by
 * reflection still leads to /dev/null.
 */
public class Stdout extends FileOutputStream {  // not final: a program may subclass the idiom's stream
    private volatile boolean closed;

    public Stdout() {
        // Its descriptor is the test's write end, what the rewrite makes FileDescriptor.out elsewhere, which
        // getChannel() and getFD() reach; every write through this class is its own, and closing it closes the
        // test's stdout, that write end with it (Runner.Recorder.close).
        super(Runner.stdout.descriptor());
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
        Objects.checkFromIndexSize(off, len, b.length);  // as FileOutputStream checks its arguments
        if (closed || Runner.stdout.closed()) {  // this stream, or fd 1 by another route (System.out.close())
            throw new IOException("Stream Closed");  // as a closed FileOutputStream says
        }
        Runner.stdout.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {  // as OutputStream's: a subclass may declare it (red team 9)
        // nothing buffered here: the recorder holds every byte as it is written
    }

    /** Stands in for {@code FileDescriptor.out} wherever the judge's source rewrite spells it outside the idiom: a
     *  descriptor whose bytes go into the running test's stdout, in the order written, as System.out's do. */
    public static FileDescriptor descriptor() {
        return Runner.stdout.descriptor();
    }

    /** Where a program imports {@code FileDescriptor.out} by its simple name, what it imports (the rewrite imports
     *  this): one descriptor for the whole JVM, made by the first test that reads it, which is then that JVM's last
     *  (each later test gets a JVM, and a descriptor, of its own). */
    public static final class Imported {
        public static final FileDescriptor out = Runner.stdout.importedDescriptor();

        private Imported() {}
    }

    /** Closes fd 1 for the rest of the test, as closing the real stream does: System.out prints nothing more. */
    @Override
    public void close() throws IOException {  // as FileOutputStream's: a subclass may declare it
        closed = true;
        Runner.stdout.close();
    }
}
