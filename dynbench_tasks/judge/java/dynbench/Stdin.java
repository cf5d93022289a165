package dynbench;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Stands in for {@code new FileInputStream(FileDescriptor.in)} in judged programs, where the judge's source rewrite
 * spells it (the fast-input idiom, under a DataInputStream or a BufferedReader): the JVM's own standard input is the
 * runner's request, read to its end before any program code runs, so the idiom read nothing (red team 10: every
 * test failed). It reads the running test's stdin, the stream System.in starts each test as; closing it closes that
 * stream for this reader, as closing fd 0 does. A FileInputStream, so that the program compiles as written.
 */
public class Stdin extends FileInputStream {  // not final: a program may subclass the idiom's stream
    private final InputStream test = Runner.stdin;
    private volatile boolean closed;

    public Stdin() {
        super(FileDescriptor.in);
    }

    private InputStream open() throws IOException {
        if (closed) {
            throw new IOException("Stream Closed");  // as a closed FileInputStream says
        }
        return test;
    }

    @Override
    public int read() throws IOException {
        return open().read();
    }

    @Override
    public int read(byte[] b) throws IOException {
        return open().read(b, 0, b.length);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return open().read(b, off, len);
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        return open().readAllBytes();
    }

    @Override
    public byte[] readNBytes(int len) throws IOException {
        return open().readNBytes(len);
    }

    @Override
    public int readNBytes(byte[] b, int off, int len) throws IOException {
        return open().readNBytes(b, off, len);
    }

    @Override
    public long skip(long n) throws IOException {
        return open().skip(n);
    }

    @Override
    public int available() throws IOException {
        return open().available();
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
        return open().transferTo(out);
    }

    @Override
    public void close() {
        closed = true;
    }
}
