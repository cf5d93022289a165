package dynbench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one judged program, in a JVM of its own, on each of its tests: a fresh class loader per
 * test, its own stdin and stdout, {@code System.exit} redirected (source rewrite) so it ends the
 * test, not the JVM. Nothing is judged here: the caller compares each test's output and recorded
 * values outside this JVM, which never holds expected outputs or reference code.
 *
 * <p>Request: main class, class count and (binary name, bytes) pairs, time limit in ms per test,
 * output cap in bytes, test count and stdin bytes per test. Reply, one test at a time as each ends:
 * outcome (0 returned, 1 threw, 2 exit, 3 timeout), exit status, exception class, stdout bytes,
 * elapsed ms, record count and the recorded values. After a timeout the JVM stops: the program's
 * threads cannot be trusted to leave the next test alone.
 */
public final class Runner {
    static final int RETURNED = 0, THREW = 1, EXITED = 2, TIMED_OUT = 3;
    static final long STACK_BYTES = 256L << 20;

    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in)));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)));
        String mainClass = Wire.readString(in);
        Map<String, byte[]> classes = new HashMap<>();
        int classCount = in.readInt();
        for (int i = 0; i < classCount; i++) {
            classes.put(Wire.readString(in), Wire.readBytes(in));
        }
        int timeLimitMs = in.readInt(), outputCap = in.readInt();
        List<byte[]> tests = new ArrayList<>();
        int testCount = in.readInt();
        for (int i = 0; i < testCount; i++) {
            tests.add(Wire.readBytes(in));
        }
        System.setErr(new PrintStream(OutputStream.nullOutputStream()));
        for (byte[] input : tests) {
            Result result = runOne(mainClass, classes, input, timeLimitMs, outputCap);
            out.writeInt(result.outcome);
            out.writeInt(result.exitStatus);
            Wire.writeString(out, result.exception);
            Wire.writeBytes(out, result.stdout);
            out.writeInt(result.millis);
            out.writeInt(result.records.size());
            for (String value : result.records) {
                Wire.writeString(out, value);
            }
            out.flush();
            if (result.outcome == TIMED_OUT) {
                break;
            }
        }
        out.flush();
        Runtime.getRuntime().halt(0);
    }

    static final class Result {
        int outcome = RETURNED, exitStatus;
        String exception = "";
        byte[] stdout = new byte[0];
        int millis;
        List<String> records = new ArrayList<>();
    }

    /** The threads of one test; the first thing that ends it (exit or uncaught throwable) is its outcome. */
    static final class ProgramThreads extends ThreadGroup {
        final Result result;
        volatile boolean ended;

        ProgramThreads(Result result) {
            super("judged-program");
            this.result = result;
        }

        @Override
        public void uncaughtException(Thread thread, Throwable thrown) {
            end(thrown);
        }

        synchronized void end(Throwable thrown) {
            if (!ended) {
                ended = true;
                record(result, thrown);
            }
        }

        Thread firstAlive() {
            Thread[] threads = new Thread[activeCount() + 16];
            int count = enumerate(threads, true);
            for (int i = 0; i < count; i++) {
                if (threads[i].isAlive()) {
                    return threads[i];
                }
            }
            return null;
        }
    }

    static final class JobLoader extends ClassLoader {
        final Map<String, byte[]> classes;

        JobLoader(Map<String, byte[]> classes) {
            super(Runner.class.getClassLoader());
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] bytes = classes.get(name);
            if (bytes == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    /** Keeps the first {@code cap} bytes and drops the rest. */
    static final class CappedStream extends OutputStream {
        final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        final int cap;

        CappedStream(int cap) {
            this.cap = cap;
        }

        @Override
        public synchronized void write(int b) {
            if (kept.size() < cap) {
                kept.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            kept.write(b, off, Math.max(0, Math.min(len, cap - kept.size())));
        }
    }

    static Result runOne(String mainClass, Map<String, byte[]> classes, byte[] input, int timeLimitMs, int cap) {
        Result result = new Result();
        CappedStream stdout = new CappedStream(cap);
        PrintStream printer = new PrintStream(stdout, false, StandardCharsets.UTF_8);
        System.setIn(new ByteArrayInputStream(input));
        System.setOut(printer);
        Record.drain();
        ProgramThreads program = new ProgramThreads(result);
        // An anonymous class, not a lambda: a lambda's bootstrap costs every fresh JVM milliseconds.
        Thread runner = new Thread(program, new Runnable() {
            @Override
            public void run() {
                try {
                    Class<?> main = Class.forName(mainClass, true, new JobLoader(classes));
                    java.lang.reflect.Method entry = main.getMethod("main", String[].class);
                    entry.setAccessible(true);  // like the java launcher, run main of a non-public class too
                    entry.invoke(null, (Object) new String[0]);
                } catch (Throwable thrown) {
                    program.end(thrown);
                }
            }
        }, "judged-main", STACK_BYTES);
        runner.setDaemon(true);
        long start = System.nanoTime();
        long deadline = start + timeLimitMs * 1_000_000L;
        runner.start();
        // Like the JVM before it exits, wait for every thread the program started, unless it exited.
        Thread alive = runner;
        while (alive != null && !program.ended && System.nanoTime() < deadline) {
            try {
                alive.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                break;
            }
            alive = program.firstAlive();
        }
        if (program.firstAlive() != null && !program.ended) {
            result.outcome = TIMED_OUT;
        }
        printer.flush();
        result.stdout = stdout.kept.toByteArray();
        result.records = Record.drain();
        result.millis = (int) ((System.nanoTime() - start) / 1_000_000);
        return result;
    }

    static void record(Result result, Throwable thrown) {
        Throwable cause = thrown;
        while ((cause instanceof InvocationTargetException || cause instanceof ExceptionInInitializerError)
               && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof Exit.ExitSignal) {
            result.outcome = EXITED;
            result.exitStatus = ((Exit.ExitSignal) cause).status;
        } else {
            result.outcome = THREW;
            result.exception = cause.getClass().getName();
        }
    }
}
