package dynbench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs one judged program, in a JVM of its own, on each of its tests: a fresh class loader per
 * test, its own stdin and stdout. Nothing is judged here: the caller compares each test's output and
 * recorded values outside this JVM, which never holds expected outputs or reference code.
 *
 * <p>A program may end the JVM itself (System.exit or Runtime.halt by any route the source rewrite
 * does not see): the caller then takes the test's exit status from the process, and what it printed
 * from the flight recorder, a file mapped into memory that this JVM writes every byte of the test's stdout
 * into as it is printed. What the runner keeps of a test is out of the program's reach: the program
 * runs in an unnamed module, and this module's package is never opened to it.
 *
 * <p>Request: the secret that keys this JVM's replies (read before any program code runs, and kept
 * where none can read it: {@link Replies}), the path to write replies to ("" for standard output) and
 * the flight recorder's path ("" for none). The runner opens both by path and replies an empty frame;
 * then (the judge has removed both names: no program can open either) main class, class count and
 * (binary name, bytes) pairs, whether a program's shutdown hooks run (then a test whose program
 * registered one ends the JVM for real, with the test's exit status: the hooks may print, or halt with
 * another), time limit in ms per test, output cap in bytes, test count and stdin bytes per test. Reply,
 * one authenticated frame per test as each ends: outcome (0 returned, 1 threw, 2 exit, 3 timeout), exit
 * status, exception class, stdout bytes, elapsed ms, record count and the recorded values, and whether
 * the JVM stops after this test.
 * It stops after a timeout, and after a test that leaves threads running (they cannot be trusted to
 * leave the next test alone): the caller runs the remaining tests in a fresh JVM.
 */
public final class Runner {
    static final int RETURNED = 0, THREW = 1, EXITED = 2, TIMED_OUT = 3;
    static final long STACK_BYTES = 256L << 20;
    /** The status a JVM left running past its test's time limit is halted with (as by {@code timeout}). */
    static final int TIMEOUT_STATUS = 124;
    /** The running test's stdout, which {@link Stdout} writes to as System.out does. */
    static volatile Recorder stdout;
    /** The running test's stdin, which {@link Stdin} reads as System.in does. */
    static volatile InputStream stdin = InputStream.nullInputStream();
    /** Set once the runner ends its JVM for real, to run a program's shutdown hooks. */
    static volatile boolean endingJvm;
    /** The JVM's and the runner's own threads, alive before any program code ran: every other thread is a
     *  program's, whatever group it was started in (a program may start one in a group above its own). */
    static Set<Thread> ownThreads = Set.of();
    /** The JVM-wide defaults a program may change, as they were before any program code ran: each test starts
     *  from them, as a program does in a JVM of its own. */
    static final Properties PRISTINE_PROPERTIES = new Properties();
    static Locale pristineLocale, pristineFormatLocale, pristineDisplayLocale;
    static final Map<Thread, String> pristineThreadNames = new HashMap<>();
    /** System.err for every test: nobody judges it. */
    static final PrintStream NO_STDERR = new PrintStream(OutputStream.nullOutputStream());

    private Runner() {}

    public static void main(String[] args) throws IOException {
        FileInputStream request = new FileInputStream(FileDescriptor.in);
        byte[] secret;
        try {  // unbuffered: no copy of the secret is left in a buffer
            secret = Wire.readBytes(new DataInputStream(request));
        } catch (EOFException noRequest) {  // how the judge checks that a runner starts at all
            Runtime.getRuntime().halt(0);
            return;
        }
        DataInputStream in = new DataInputStream(new BufferedInputStream(request));
        String replyPath = Wire.readString(in);
        Replies replies = new Replies(new BufferedOutputStream(replyPath.isEmpty()
            ? new FileOutputStream(FileDescriptor.out) : new FileOutputStream(replyPath), 1 << 16), secret);
        ByteBuffer recorded = recorderBuffer(Wire.readString(in));
        DescriptorPipe descriptorPipe = DescriptorPipe.open(Wire.readString(in));
        // Both are open: the judge removes their names on this frame, and only then sends the program.
        replies.send(new byte[0]);
        String mainClass = Wire.readString(in);
        Map<String, byte[]> classes = new HashMap<>();
        int classCount = in.readInt();
        for (int i = 0; i < classCount; i++) {
            classes.put(Wire.readString(in), Wire.readBytes(in));
        }
        boolean ownJvmPerTest = mentionsAny(classes.values(), OWN_JVM_PER_TEST);
        boolean runsShutdownHooks = in.readBoolean();
        int timeLimitMs = in.readInt(), outputCap = in.readInt();
        List<byte[]> tests = new ArrayList<>();
        int testCount = in.readInt();
        for (int i = 0; i < testCount; i++) {
            tests.add(Wire.readBytes(in));
        }
        if (recorded == null) {
            recorded = ByteBuffer.allocate(Recorder.HEADER + outputCap);
        }
        startDrainer();
        ownThreads = new HashSet<>(Arrays.asList(allThreads()));
        PRISTINE_PROPERTIES.putAll(System.getProperties());
        pristineLocale = Locale.getDefault();
        pristineFormatLocale = Locale.getDefault(Locale.Category.FORMAT);
        pristineDisplayLocale = Locale.getDefault(Locale.Category.DISPLAY);
        for (Thread own : ownThreads) {
            pristineThreadNames.put(own, own.getName());
        }
        stdout = new Recorder(recorded, Math.min(outputCap, recorded.capacity() - Recorder.HEADER), descriptorPipe);
        for (byte[] input : tests) {
            Result result = runOne(mainClass, classes, input, timeLimitMs, stdout);
            if (runsShutdownHooks && result.halted && registeredShutdownHooks()) {
                // Runtime.halt ends the JVM and runs no hook: so does this one (the test has ended, and the flight
                // recorder says how), or the hooks would run as a later test of this JVM ends.
                Runtime.getRuntime().halt(result.exitStatus);
            }
            if (runsShutdownHooks && (result.outcome == RETURNED || result.outcome == EXITED)
                && registeredShutdownHooks()) {
                // Java runs a program's shutdown hooks as it ends, and what a hook prints counts and it may
                // change the exit status (halt): end this JVM for real, and the caller judges the process's
                // status and the output the flight recorder holds, as for any program that ends its JVM.
                endingJvm = true;
                stdout.thaw();
                stdout.undecided();  // the hooks may halt with another status: the JVM's decides
                haltAfter(timeLimitMs - result.millis);
                Runtime.getRuntime().exit(result.exitStatus);
            }
            ByteArrayOutputStream frame = new ByteArrayOutputStream(64 + result.stdout.length);
            DataOutputStream out = new DataOutputStream(frame);
            out.writeInt(result.outcome);
            out.writeInt(result.exitStatus);
            Wire.writeString(out, result.exception);
            Wire.writeBytes(out, result.stdout);
            out.writeInt(result.millis);
            out.writeInt(result.records.size());
            for (String value : result.records) {
                Wire.writeString(out, value);
            }
            boolean stops = result.outcome == TIMED_OUT || result.threadsLeft || result.inheritsFinalizer
                || ownJvmPerTest || stdout.keepsProgram();
            out.writeBoolean(stops);
            replies.send(frame.toByteArray());
            if (stops) {
                break;
            }
        }
        Runtime.getRuntime().halt(0);
    }

    /** The methods a program that names one (declares or calls it; where it only names it, it runs slower) runs
     *  each test in a JVM of its own for: {@code finalize}, since the JVM's finalizer thread may run one of an
     *  earlier test's at any time, in a later test (red team 9: one solved the next test while it kept the runner
     *  from starting its clock); and the factories java lets a JVM set only once, since a second test's call
     *  would throw where each {@code java} run sets it once (red team 9's h05). */
    static final String[] OWN_JVM_PER_TEST = {"finalize", "setURLStreamHandlerFactory", "setContentHandlerFactory",
                                              "setSocketImplFactory", "setSocketFactory"};

    /** Whether a class file holds one of {@code names} (a method's name is in its constant pool, as written). */
    static boolean mentionsAny(Iterable<byte[]> classFiles, String[] names) {
        for (String word : names) {
            byte[] name = word.getBytes(StandardCharsets.US_ASCII);
            for (byte[] bytes : classFiles) {
                for (int at = 0; at + name.length <= bytes.length; at++) {
                    if (bytes[at] == name[0] && Arrays.equals(bytes, at, at + name.length, name, 0, name.length)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Starts the runner's thread that looks at the descriptor's pipe every millisecond while a test that was
     *  handed it runs ({@link Recorder#drainIfStalled}). */
    static void startDrainer() {
        Thread drainer = new Thread(new Runnable() {  // not a lambda: see runOne
            @Override
            public void run() {
                while (true) {
                    Recorder recorder = stdout;
                    boolean drains = recorder != null && recorder.drains();
                    if (drains) {
                        recorder.drainIfStalled();
                    }
                    LockSupport.parkNanos(drains ? 1_000_000L : 10_000_000L);
                }
            }
        }, "judge-descriptor-drainer");
        drainer.setDaemon(true);
        drainer.start();
    }

    /** Halts this JVM once the test's time is up: a hook that never ends (one that loops, or exits: Java's exit
     *  blocks for ever in a hook) leaves it undecided past its limit, which the caller judges a timeout, as soon as
     *  that, and not at the deadline of all the tests the JVM was given. */
    static void haltAfter(long millis) {
        Thread deadline = new Thread(new Runnable() {
            @Override
            public void run() {
                long until = System.nanoTime() + Math.max(0, millis + 50) * 1_000_000L;
                for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
                Runtime.getRuntime().halt(TIMEOUT_STATUS);
            }
        }, "judge-hook-deadline");
        deadline.setDaemon(true);
        deadline.start();
    }

    /** Whether this JVM is ending: the runner ended it, or a program did by a route the rewrite does not see
     *  (Java empties its table of hooks, read without its lock, as it starts running them). */
    static boolean jvmEnding() {
        if (endingJvm) {
            return true;
        }
        try {
            Field hooks = Class.forName("java.lang.ApplicationShutdownHooks").getDeclaredField("hooks");
            hooks.setAccessible(true);
            return hooks.get(null) == null;
        } catch (ReflectiveOperationException | RuntimeException unreadable) {
            return false;
        }
    }

    /** Whether the program registered a shutdown hook (java.lang is opened to this module alone); when
     *  that cannot be read, yes: ending the JVM for real is always right, only slower. */
    static boolean registeredShutdownHooks() {
        try {
            Field hooks = Class.forName("java.lang.ApplicationShutdownHooks").getDeclaredField("hooks");
            hooks.setAccessible(true);
            Object registered = hooks.get(null);
            return !(registered instanceof Map) || !((Map<?, ?>) registered).isEmpty();
        } catch (ReflectiveOperationException | RuntimeException unreadable) {
            return true;
        }
    }

    /** The flight recorder, the file at {@code path} mapped into memory whole; null where there is none. */
    static ByteBuffer recorderBuffer(String path) {
        if (!path.isEmpty()) {
            try (FileChannel channel = FileChannel.open(Path.of(path), StandardOpenOption.READ,
                                                        StandardOpenOption.WRITE)) {
                return channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
            } catch (IOException | RuntimeException unavailable) {
                // then an exit the rewrite does not see loses the test's output, as before
            }
        }
        return null;
    }

    /** What a program reaches as {@code FileDescriptor.out} wherever the source rewrite spells it outside the
     *  fast-output idiom ({@link Stdout#descriptor}): a pipe of the runner's channel (a FIFO the judge made), whose
     *  bytes the {@link Recorder} takes into the test's stdout in the order they were written. A real descriptor, so
     *  that every route through it works as fd 1 does (a FileWriter, getChannel(), getFD(), the descriptor kept in a
     *  variable), and a pipe, as fd 1 is where a test's output is read: what java refuses on a pipe it refuses here
     *  (truncating it, writing at a position, seeking: red team 9 hid what it printed so); the JVM's own fd 1 goes to
     *  /dev/null. Each test is handed a write end of its own, opened before any program code ran (no name leads to
     *  the pipe afterwards): closing it closes that test's fd 1 alone, and a stream a test attached to it (every
     *  FileOutputStream on a descriptor is closed with it) goes with that test (red team 10: one test's close ran
     *  an earlier test's stream's close(), and a subclass's statics filled the heap). A JVM stops after the test
     *  that takes its last. What a test leaves in the pipe is dropped as the next starts. */
    static final class DescriptorPipe {
        static final int WRITE_ENDS = 16;
        final FileInputStream reader;  // not a FileChannel: an interrupted thread would close that for good
        private final FileOutputStream[] writeEnds;
        private int handedOut;

        private DescriptorPipe(FileOutputStream[] writeEnds, FileInputStream reader) {
            this.writeEnds = writeEnds;
            this.reader = reader;
        }

        /** The next test's write end (the runner forgets it as that test ends). */
        FileOutputStream nextWriteEnd() {
            FileOutputStream end = writeEnds[handedOut];
            writeEnds[handedOut++] = null;
            return end;
        }

        boolean allHandedOut() {
            return handedOut == writeEnds.length;
        }

        /** The pipe at {@code path}, whose reader the judge holds open (so no open waits); null where there is none
         *  (then FileDescriptor.out is the JVM's own). Not opened for appending: a pipe has no position to append
         *  at, and java's fd 1 seeks nowhere (red team 10: position() gave the size). */
        static DescriptorPipe open(String path) {
            if (path.isEmpty()) {
                return null;
            }
            try {
                FileOutputStream[] ends = new FileOutputStream[WRITE_ENDS];
                for (int i = 0; i < ends.length; i++) {
                    ends[i] = new FileOutputStream(path);
                }
                return new DescriptorPipe(ends, new FileInputStream(path));
            } catch (IOException | RuntimeException unavailable) {
                return null;
            }
        }
    }

    static final class Result {
        int outcome = RETURNED, exitStatus;
        String exception = "";
        byte[] stdout = new byte[0];
        int millis;
        List<String> records = new ArrayList<>();
        boolean threadsLeft;
        /** A class of the program inherits a finalizer from the JDK ({@link JobLoader#inheritsFinalizer}). */
        boolean inheritsFinalizer;
        /** Ended by Runtime.halt (the rewrite's), which runs no shutdown hook. */
        boolean halted;
    }

    /** A test's stdout: its length, how the test ended (0 while it runs, else 1 + its outcome), its exit status and
     *  whether the test closed it (1) or not (0), then its first {@code cap} bytes; frozen once the test has ended.
     *  A program that ends the JVM during its test leaves what the descriptor's pipe still holds to the caller, which
     *  reads it from there. A program that ends the JVM after its test ended (from a thread of its own, while the
     *  runner is kept from replying) cannot make that end another: the caller reads it here. */
    static final class Recorder extends OutputStream {
        static final int HEADER = 16;
        private final ByteBuffer buffer;
        private final int cap;
        // Set without this recorder's monitor, as is how the test ended: a thread of the program may hold it
        // for ever (suspended inside a write), and ending a test must not wait on it.
        private volatile boolean frozen;
        // The test closed its standard output (System.out, or the fast-output idiom's stream: both are fd 1 to a
        // program): as in a JVM of its own, nothing it writes there afterwards arrives.
        private volatile boolean closed;
        private final DescriptorPipe descriptorPipe;
        // The running test's write end of the pipe and its descriptor, once the test asked for it; the lock that
        // hands it out (the runner never waits on it).
        private volatile FileOutputStream writeEnd;
        private volatile FileDescriptor descriptor;
        private final Object handingOut = new Object();
        // Whether a test of this JVM was handed a write end (then each write takes in what the pipe holds first),
        // how much of it the test's stdout took in, and how much it had been written as the test ended.
        private volatile boolean descriptorUsed;
        private volatile long descriptorTaken;
        private volatile long descriptorEnd = Long.MAX_VALUE;
        // Held while bytes are taken out of the pipe and counted: where the test ended in the pipe is then exact. A
        // lock of the runner's: a program cannot hold it but from inside a write (suspended there), and where it
        // does, the test's end is counted without it (freeze).
        private final ReentrantLock pipeLock = new ReentrantLock();
        // How much the pipe held at the drainer's last look (-1: it took the pipe in then).
        private int lastHeld = -1;
        // The pipe could not be read, or a program imported FileDescriptor.out statically (one descriptor for the JVM).
        private volatile boolean keepsProgram;

        Recorder(ByteBuffer buffer, int cap, DescriptorPipe descriptorPipe) {
            this.buffer = buffer;
            this.cap = cap;
            this.descriptorPipe = descriptorPipe;
        }

        synchronized void reset() {
            buffer.putInt(0, 0);
            buffer.putInt(4, 0);
            buffer.putInt(8, 0);
            buffer.putInt(12, 0);
            frozen = false;
            closed = false;
            writeEnd = null;
            descriptor = null;
            if (descriptorUsed && !keepsProgram) {
                try {  // what a thread wrote after the last test ended goes too (read: a pipe cannot skip)
                    byte[] dropped = new byte[1 << 16];
                    for (int left = descriptorPipe.reader.available(); left > 0;
                         left = descriptorPipe.reader.available()) {
                        descriptorPipe.reader.read(dropped, 0, Math.min(left, dropped.length));
                    }
                } catch (IOException unreadable) {
                    keepsProgram = true;
                }
            }
            descriptorTaken = 0;
            descriptorEnd = Long.MAX_VALUE;
        }

        /** FileDescriptor.out for the running test's program ({@link Stdout#descriptor}): once the test closed its
         *  stdout (System.out.close() closes fd 1 in java), a closed descriptor, which every write refuses. */
        FileDescriptor descriptor() {
            return closed ? new FileDescriptor() : pipeDescriptor();
        }

        /** The running test's write end of the pipe, handed out as the test first asks for it. */
        private FileDescriptor pipeDescriptor() {
            if (descriptorPipe == null) {
                return FileDescriptor.out;
            }
            FileDescriptor current = descriptor;
            if (current == null) {
                synchronized (handingOut) {
                    current = descriptor;
                    if (current == null) {
                        FileOutputStream end = descriptorPipe.nextWriteEnd();
                        try {
                            current = end.getFD();
                        } catch (IOException closed) {
                            current = new FileDescriptor();
                        }
                        writeEnd = end;
                        descriptor = current;
                        descriptorUsed = true;
                    }
                }
            }
            return current;
        }

        /** {@link Stdout.Imported#out}: made once per JVM, so the JVM runs this test alone. */
        FileDescriptor importedDescriptor() {
            keepsProgram = true;
            return descriptor();
        }

        /** Whether the JVM stops after this test, and its later tests run in a fresh one: it handed out its last write
         *  end, the pipe could not be read, or a program imported the descriptor statically. */
        boolean keepsProgram() {
            return keepsProgram || (descriptorPipe != null && descriptorPipe.allHandedOut());
        }

        /** Takes what the descriptor's pipe holds, up to where the test ended, into the test's stdout, as if it had
         *  been written here; a closed descriptor closes the test's stdout, as fd 1. */
        private void takeDescriptorPipe() {
            if (!descriptorUsed) {
                return;
            }
            FileInputStream pipe = descriptorPipe.reader;
            pipeLock.lock();
            try {
                long left = Math.min(descriptorEnd - descriptorTaken, pipe.available());
                byte[] piece = new byte[(int) Math.min(1 << 16, Math.max(0, left))];
                while (left > 0) {
                    int read = pipe.read(piece, 0, (int) Math.min(piece.length, left));
                    if (read <= 0) {
                        break;
                    }
                    keep(piece, 0, read);
                    descriptorTaken += read;
                    left = Math.min(descriptorEnd - descriptorTaken, pipe.available());
                }
                FileDescriptor current = descriptor;
                if (current != null && !current.valid()) {
                    markClosed();
                }
            } catch (IOException unreadable) {
                keepsProgram = true;
            } finally {
                pipeLock.unlock();
            }
        }

        /** Takes the descriptor's pipe in while a test runs where it held the same since the drainer's last look: a
         *  program that writes more than the pipe holds through it alone would otherwise wait for ever (a test's
         *  output is read as it is written). Not while it is being written to: a program that then ends its JVM by a
         *  route the rewrite does not see would lose what was being taken in as it ended. */
        void drainIfStalled() {
            int held;
            try {
                held = descriptorPipe.reader.available();
            } catch (IOException unreadable) {
                return;
            }
            if (held > 0 && held == lastHeld) {
                synchronized (this) {
                    if (!frozen) {
                        takeDescriptorPipe();
                    }
                }
                held = -1;
            }
            lastHeld = held;
        }

        boolean drains() {
            return descriptorUsed && !frozen;
        }

        /** Whether the test closed its stdout: by System.out, the idiom's stream, or the descriptor itself. */
        boolean closed() {
            FileDescriptor current = descriptor;
            return closed || (current != null && !current.valid());
        }

        /** Closes the test's stdout, as closing fd 1 does: what the pipe holds was written before and is the test's;
         *  then the test's write end is closed, so that every later write through it throws, as in java (red team 10:
         *  a write after System.out.close() went through, and text written after the close was judged). Closing it
         *  closes each stream on it, as java closes each one on fd 1: in this thread, outside this recorder's monitor
         *  (a stream's close() is the program's code). */
        @Override
        public void close() {
            synchronized (this) {
                if (!frozen) {
                    takeDescriptorPipe();
                }
            }
            markClosed();
            FileOutputStream end = writeEnd;
            if (end != null) {
                try {
                    end.close();
                } catch (IOException alreadyClosed) {
                    // closed: as wanted
                }
            }
        }

        private void markClosed() {
            closed = true;
            buffer.putInt(12, 1);  // the caller reads none of the pipe's leftovers for a test that closed it
        }

        synchronized void undecided() {
            buffer.putInt(4, 0);
        }

        void ended(int outcome, int exitStatus) {
            buffer.putInt(8, exitStatus);
            buffer.putInt(4, 1 + outcome);  // last: the caller reads the status only once this is set
        }

        void freeze() {
            if (descriptorPipe != null) {  // what its pipe holds up to now is the test's, and nothing after
                boolean locked = false;
                try {
                    locked = pipeLock.tryLock(20, TimeUnit.MILLISECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
                try {
                    descriptorEnd = descriptorTaken + descriptorPipe.reader.available();
                } catch (IOException unreadable) {
                    descriptorEnd = descriptorTaken;
                } finally {
                    if (locked) {
                        pipeLock.unlock();
                    }
                }
            }
            frozen = true;
        }

        synchronized void thaw() {
            descriptorEnd = Long.MAX_VALUE;
            frozen = false;
        }

        synchronized byte[] bytes() {
            takeDescriptorPipe();  // what it held as the test ended is the test's, frozen or not
            byte[] kept = new byte[buffer.getInt(0)];
            buffer.duplicate().position(HEADER).get(kept);
            return kept;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            if (!frozen) {
                takeDescriptorPipe();
                keep(b, off, len);
            }
        }

        private void keep(byte[] b, int off, int len) {
            int size = buffer.getInt(0);
            int kept = closed ? 0 : Math.max(0, Math.min(len, cap - size));
            if (kept > 0) {
                buffer.duplicate().position(HEADER + size).put(b, off, kept);
                buffer.putInt(0, size + kept);  // after the bytes: a JVM that ends between the two loses them
            }
        }
    }

    /** The threads of one test; the first thing that ends it (an exit, main's throwable) is its outcome. A throwable
     *  another thread does not catch ends that thread alone, as in Java (its trace goes to System.err).
     *  Nothing here waits on a monitor a program can hold (this group's, its threads', a class's): the runner
     *  would stop replying while a thread of the program ended the JVM with a status of its choice. */
    static final class ProgramThreads extends ThreadGroup {
        private final Result result;
        private final Recorder stdout;
        private final Object lock = new Object();
        private volatile boolean ended;
        /** Counted down as the program's main thread leaves it (returned, threw or exited). */
        final CountDownLatch mainDone = new CountDownLatch(1);
        /** Counted down as main leaves or the test ends: a thread that exits while main waits ends the test at once
         *  (red team 9: a worker's System.exit(0) took the whole time limit, as main waited on a latch). */
        final CountDownLatch settled = new CountDownLatch(1);

        ProgramThreads(Result result, Recorder stdout) {
            super("judged-program");
            this.result = result;
            this.stdout = stdout;
        }

        void threw(Throwable thrown) {
            // The throwable that reflection or class initialisation wrapped the program's in, unwrapped; only the
            // JDK's own wrappers (their exact classes), whose getCause() is the JDK's: a program's subclass may
            // answer it by throwing, by a chain without end or by never returning, and no code of the program may
            // run before the test has ended (a thread of it could end the JVM meanwhile).
            Throwable cause = thrown;
            for (int depth = 0; depth < 16 && (cause.getClass() == InvocationTargetException.class
                 || cause.getClass() == ExceptionInInitializerError.class) && cause.getCause() != null; depth++) {
                cause = cause.getCause();
            }
            end(THREW, 0, cause.getClass().getName(), false);
        }

        /** Like System.exit: the test ends here, and nothing its threads print afterwards counts (a write under
         *  way as it ends may still land: freezing does not wait for it). */
        void end(int outcome, int exitStatus, String exception, boolean halted) {
            synchronized (lock) {
                if (!ended) {
                    stdout.freeze();
                    stdout.ended(outcome, exitStatus);
                    result.outcome = outcome;
                    result.exitStatus = exitStatus;
                    result.exception = exception;
                    result.halted = halted;
                    ended = true;
                    settled.countDown();
                }
            }
        }

        /** A thread that keeps the test going: its main thread, else any non-daemon thread (as a JVM waits for). */
        Thread firstRunning(Thread main) {
            if (mainDone.getCount() > 0 && main.isAlive()) {
                return main;
            }
            for (Thread thread : threads()) {
                if (thread != main && thread.isAlive() && !thread.isDaemon()) {
                    return thread;
                }
            }
            return runningElsewhere();
        }

        /** Whether a thread of the program is still alive, daemon or not, in any group: its main thread only until it
         *  has left the program (it may still be ending, in the runner's own code). A daemon thread started in a
         *  group above the program's would otherwise live on into the next test, and answer it (red team 8). */
        boolean anyAlive(Thread main) {
            for (Thread thread : allThreads()) {
                if (thread.isAlive() && !ownThreads.contains(thread) && (thread != main || mainDone.getCount() > 0)) {
                    return true;
                }
            }
            return false;
        }

        /** A non-daemon thread of the program outside this group, which the JVM would wait for too. */
        private Thread runningElsewhere() {
            for (Thread thread : allThreads()) {
                if (thread.isAlive() && !thread.isDaemon() && thread.getThreadGroup() != this
                    && !ownThreads.contains(thread)) {
                    return thread;
                }
            }
            return null;
        }

        /** The live threads of this group and the groups under it. */
        private List<Thread> threads() {
            List<Thread> found = new ArrayList<>();
            for (Thread thread : allThreads()) {
                for (ThreadGroup group = thread.getThreadGroup(); group != null; group = group.getParent()) {
                    if (group == this) {
                        found.add(thread);
                        break;
                    }
                }
            }
            return found;
        }
    }

    /** Every live thread of the JVM, in every group, as the JVM lists them: a thread group's own count and
     *  list wait on its monitor, which a program may hold. */
    static Thread[] allThreads() {
        return Thread.getAllStackTraces().keySet().toArray(new Thread[0]);
    }

    /** {@link Exit#exit} and {@link Exit#halt}: ends the test of the calling thread; from no test's thread, the
     *  JVM, as Java would. */
    static void exitTest(int status, boolean halts) {
        if (jvmEnding()) {  // the JVM is running the program's shutdown hooks, as Java does when it ends
            if (halts) {
                Runtime.getRuntime().halt(status);
            }
            while (true) {  // Runtime.exit blocks for ever there (Java 17's Shutdown: the JVM never ends)
                LockSupport.park();
            }
        }
        for (ThreadGroup group = Thread.currentThread().getThreadGroup(); group != null; group = group.getParent()) {
            if (group instanceof ProgramThreads) {
                ((ProgramThreads) group).end(EXITED, status, "", halts);
                return;
            }
        }
        if (halts) {
            Runtime.getRuntime().halt(status);
        }
        Runtime.getRuntime().exit(status);  // runs the program's hooks, as Java does
    }

    static final class JobLoader extends ClassLoader {
        final Map<String, byte[]> classes;
        private final List<Class<?>> defined = new ArrayList<>();

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
            Class<?> made = defineClass(name, bytes, 0, bytes.length);
            synchronized (defined) {
                defined.add(made);
            }
            return made;
        }

        /** Whether a class this test loaded has a finalizer it inherits from the JDK (java.awt.PrintJob's, whose
         *  finalize() calls the program's end(): red team 10 solved a later test from the finalizer thread with it),
         *  which the runner's look at the program's class files for the name does not see. Read without running
         *  program code (no class is initialised). */
        boolean inheritsFinalizer() {
            List<Class<?>> classes;
            synchronized (defined) {
                classes = new ArrayList<>(defined);
            }
            for (Class<?> loaded : classes) {
                // java.lang.Enum's finalize() is final and empty: every enum class has it, and it runs nothing
                for (Class<?> type = loaded.getSuperclass(); type != null && type != Object.class && type != Enum.class;
                     type = type.getSuperclass()) {
                    try {
                        type.getDeclaredMethod("finalize");
                        return true;
                    } catch (NoSuchMethodException | SecurityException | LinkageError none) {
                        // looks further up
                    }
                }
            }
            return false;
        }
    }

    /** Puts back what an earlier test of this JVM may have changed for all of it (red team 5: a system property
     *  set by one test was read by the next). No code of a program runs here (a test that leaves a thread alive
     *  stops its JVM, as does a program with a finalizer), so none holds a monitor this takes (Locale's, a thread
     *  group's). */
    static void restoreJvmDefaults() {
        Properties properties = new Properties();
        properties.putAll(PRISTINE_PROPERTIES);
        System.setProperties(properties);
        Locale.setDefault(pristineLocale);
        Locale.setDefault(Locale.Category.FORMAT, pristineFormatLocale);
        Locale.setDefault(Locale.Category.DISPLAY, pristineDisplayLocale);
        TimeZone.setDefault(null);  // the JVM's own again when next asked (read now, it costs every JVM its zones)
        Thread.setDefaultUncaughtExceptionHandler(null);
        // A value an earlier test left in a JVM thread's name, or an object of its own as a java.net default, which a
        // later test reached (red team 10): none is set before a program sets one.
        for (Map.Entry<Thread, String> named : pristineThreadNames.entrySet()) {
            if (!named.getKey().getName().equals(named.getValue())) {
                named.getKey().setName(named.getValue());
            }
        }
        java.net.CookieHandler.setDefault(null);
        java.net.ResponseCache.setDefault(null);
        java.net.Authenticator.setDefault(null);
        System.setErr(NO_STDERR);  // not the stdout an earlier test made it
        List<ThreadGroup> groups = new ArrayList<>();  // a lowered ceiling passed a value to the next test (red team 9)
        for (ThreadGroup group = Thread.currentThread().getThreadGroup(); group != null; group = group.getParent()) {
            groups.add(0, group);
        }
        for (ThreadGroup group : groups) {
            group.setMaxPriority(Thread.MAX_PRIORITY);
        }
    }

    /** As java's launcher does with what main threw: to the uncaught-exception handler the program set for its
     *  main thread, or to the default one it set (one that exits decides the test; java ends with status 1 after
     *  one that returns). None set, nothing runs: java prints the trace to System.err, which nobody judges, and
     *  printing it would run the throwable's own code (getCause()) before the test ends. */
    static void toUncaughtHandler(ProgramThreads program, Throwable thrown) {
        Thread main = Thread.currentThread();
        Thread.UncaughtExceptionHandler handler = main.getUncaughtExceptionHandler();
        if (program.ended || thrown.getClass() != InvocationTargetException.class || thrown.getCause() == null
            || thrown.getCause() instanceof Exit.ExitSignal
            || (handler == program && Thread.getDefaultUncaughtExceptionHandler() == null)) {
            return;
        }
        try {
            handler.uncaughtException(main, thrown.getCause());
        } catch (Throwable ignored) {  // as java ignores what a handler throws
        }
    }

    static Result runOne(String mainClass, Map<String, byte[]> classes, byte[] input, int timeLimitMs,
                         Recorder stdout) {
        // The test's clock starts before anything of the runner's that an earlier test's leftover code could hold up
        // (red team 9: a finalizer that kept the runner's thread group's monitor while it solved the next test).
        long start = System.nanoTime();
        long deadline = start + timeLimitMs * 1_000_000L;
        Result result = new Result();
        stdout.reset();
        restoreJvmDefaults();
        stdin = new ByteArrayInputStream(input);
        System.setIn(stdin);
        // As java makes System.out: what a program prints goes straight into the recorder (it counts when the
        // program halts), except a byte written alone (write(int)) that is not a newline, which waits in a buffer
        // of 128 bytes for the next flush (red team 8: printed before the idiom's bytes, where java prints it
        // after them). A stream of its own per test: a program may close it.
        System.setOut(new PrintStream(new BufferedOutputStream(stdout, 128), true, StandardCharsets.UTF_8));
        Record.drain();
        ProgramThreads program = new ProgramThreads(result, stdout);
        JobLoader loader = new JobLoader(classes);
        // An anonymous class, not a lambda: a lambda's bootstrap costs every fresh JVM milliseconds.
        Thread runner = new Thread(program, new Runnable() {
            @Override
            public void run() {
                try {
                    Class<?> main = Class.forName(mainClass, true, loader);
                    java.lang.reflect.Method entry = main.getMethod("main", String[].class);
                    entry.setAccessible(true);  // like the java launcher, run main of a non-public class too
                    entry.invoke(null, (Object) new String[0]);
                } catch (Throwable thrown) {
                    toUncaughtHandler(program, thrown);
                    program.threw(thrown);
                } finally {
                    program.mainDone.countDown();
                    program.settled.countDown();
                }
            }
        }, "judged-main", STACK_BYTES);
        if (System.nanoTime() < deadline) {
            runner.start();
        } else {
            program.end(TIMED_OUT, 0, "", false);
        }
        // Like the JVM before it exits, wait for the program's main thread and every non-daemon thread it
        // started, unless it exited: on a latch its main thread or an exit counts down, then by looking
        // (Thread.join waits on the thread's monitor, which the program may hold).
        try {
            program.settled.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        Thread running = program.firstRunning(runner);
        while (running != null && !program.ended && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
            running = program.firstRunning(runner);
        }
        if (!program.ended) {
            program.end(program.firstRunning(runner) != null ? TIMED_OUT : RETURNED, 0, "", false);
        }
        result.stdout = stdout.bytes();
        result.records = Record.drain();
        result.millis = (int) ((System.nanoTime() - start) / 1_000_000);
        result.threadsLeft = program.anyAlive(runner);
        result.inheritsFinalizer = loader.inheritsFinalizer();
        return result;
    }
}
