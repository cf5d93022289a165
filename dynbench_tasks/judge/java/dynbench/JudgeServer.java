package dynbench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * A warm JVM that judges Java programs in batches: all sources of a batch are compiled in memory
 * by one javax.tools compiler call (in rounds that set aside the sources with errors), and every
 * test then runs in this JVM, each in a fresh class loader with its own stdin and stdout.
 *
 * <p>Protocol on stdin/stdout, big-endian, strings as int length + UTF-8. Request: job count, then
 * per job: id, package, main class, source count and (path, text) pairs, time limit in ms, output
 * cap in bytes, test count and stdin bytes per test. Reply per job: id, status (0 compiled, 1
 * compile error, 2 not run), diagnostics, test count and per test: outcome (0 returned, 1 threw, 2
 * exit, 3 timeout), exit status, exception class, stdout bytes, elapsed ms; then 1 if this JVM ends
 * after the batch, else 0.
 *
 * <p>A test that times out or exhausts memory leaves this JVM in doubt, so the rest of the batch
 * is reported as not run and the JVM ends; the caller starts a fresh one for them.
 */
public final class JudgeServer {
    static final int COMPILED = 0, COMPILE_ERROR = 1, NOT_RUN = 2;
    static final int RETURNED = 0, THREW = 1, EXITED = 2, TIMED_OUT = 3;
    static final long STACK_BYTES = 256L << 20;

    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(new java.io.FileInputStream(FileDescriptor.in)));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            System.err.println("this Java runtime has no compiler (javax.tools): install a JDK, not a JRE");
            Runtime.getRuntime().halt(3);
        }
        while (true) {
            List<Job> jobs;
            try {
                jobs = readJobs(in);
            } catch (EOFException end) {
                Runtime.getRuntime().halt(0);
                return;
            }
            compile(compiler, jobs);
            boolean poisoned = false;
            for (Job job : jobs) {
                if (job.status == COMPILED && !poisoned) {
                    poisoned = runTests(job);
                } else if (job.status == COMPILED) {
                    job.status = NOT_RUN;
                }
                writeJob(out, job);
            }
            out.writeInt(poisoned ? 1 : 0);  // 1: this JVM ends now; the caller starts another
            out.flush();
            if (poisoned) {
                Runtime.getRuntime().halt(0);
            }
        }
    }

    static final class Job {
        String id, packageName, mainClass;
        Map<String, String> sources = new HashMap<>();
        int timeLimitMs, outputCap;
        List<byte[]> tests = new ArrayList<>();
        int status = COMPILED;
        String diagnostics = "";
        Map<String, byte[]> classes = new HashMap<>();
        List<Result> results = new ArrayList<>();
    }

    static final class Result {
        int outcome = RETURNED, exitStatus;
        String exception = "";
        byte[] stdout = new byte[0];
        int millis;
        boolean leftThreadsRunning;
    }

    /** The threads of one judged program; the first thing that ends it (exit or uncaught throwable) is its outcome. */
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

    static String readString(DataInputStream in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static void writeString(DataOutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static List<Job> readJobs(DataInputStream in) throws IOException {
        int count = in.readInt();
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Job job = new Job();
            job.id = readString(in);
            job.packageName = readString(in);
            job.mainClass = readString(in);
            int sources = in.readInt();
            for (int s = 0; s < sources; s++) {
                job.sources.put(readString(in), readString(in));
            }
            job.timeLimitMs = in.readInt();
            job.outputCap = in.readInt();
            int tests = in.readInt();
            for (int t = 0; t < tests; t++) {
                byte[] input = new byte[in.readInt()];
                in.readFully(input);
                job.tests.add(input);
            }
            jobs.add(job);
        }
        return jobs;
    }

    static void writeJob(DataOutputStream out, Job job) throws IOException {
        writeString(out, job.id);
        out.writeInt(job.status);
        writeString(out, job.diagnostics);
        out.writeInt(job.results.size());
        for (Result result : job.results) {
            out.writeInt(result.outcome);
            out.writeInt(result.exitStatus);
            writeString(out, result.exception);
            out.writeInt(result.stdout.length);
            out.write(result.stdout);
            out.writeInt(result.millis);
        }
    }

    // ------------------------------------------------------------------------ compiling
    static final class Source extends SimpleJavaFileObject {
        final Job job;
        final String text;

        Source(Job job, String path, String text) {
            super(URI.create("mem:///" + path), Kind.SOURCE);
            this.job = job;
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    static void compile(JavaCompiler compiler, List<Job> jobs) {
        Map<String, ByteArrayOutputStream> output = new HashMap<>();
        StandardJavaFileManager standard = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        JavaFileManager memory = new ForwardingJavaFileManager<>(standard) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String name, JavaFileObject.Kind kind,
                                                       FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + name.replace('.', '/') + ".class"), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                        output.put(name, bytes);
                        return bytes;
                    }
                };
            }
        };
        List<Source> pending = new ArrayList<>();
        for (Job job : jobs) {
            for (Map.Entry<String, String> source : job.sources.entrySet()) {
                pending.add(new Source(job, source.getKey(), source.getValue()));
            }
        }
        List<String> options = List.of("-proc:none", "-g:source,lines", "-Xlint:none", "-nowarn", "-encoding", "UTF-8");
        while (!pending.isEmpty()) {
            output.clear();
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            boolean ok = compiler.getTask(null, memory, diagnostics, options, null, pending).call();
            if (ok) {
                break;
            }
            Set<Job> failed = new LinkedHashSet<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR && d.getSource() instanceof Source) {
                    Job job = ((Source) d.getSource()).job;
                    failed.add(job);
                    if (job.diagnostics.length() < 2000) {
                        job.diagnostics += "line " + d.getLineNumber() + ": " + d.getMessage(null) + "\n";
                    }
                }
            }
            if (failed.isEmpty()) {  // an error no source owns: blame everything still pending
                for (Source source : pending) {
                    failed.add(source.job);
                    source.job.diagnostics = diagnostics.getDiagnostics().toString();
                }
            }
            for (Job job : failed) {
                job.status = COMPILE_ERROR;
            }
            pending.removeIf(source -> source.job.status == COMPILE_ERROR);
        }
        for (Job job : jobs) {
            if (job.status != COMPILED) {
                continue;
            }
            String prefix = job.packageName + ".";
            for (Map.Entry<String, ByteArrayOutputStream> entry : output.entrySet()) {
                if (entry.getKey().startsWith(prefix)) {
                    job.classes.put(entry.getKey(), entry.getValue().toByteArray());
                }
            }
        }
    }

    // ------------------------------------------------------------------------ running
    static final class JobLoader extends ClassLoader {
        final Map<String, byte[]> classes;

        JobLoader(Map<String, byte[]> classes) {
            super(JudgeServer.class.getClassLoader());
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

    /** Keeps the first {@code cap} bytes and remembers whether more came. */
    static final class CappedStream extends OutputStream {
        final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        final int cap;

        CappedStream(int cap) {
            this.cap = cap;
        }

        @Override
        public void write(int b) {
            if (kept.size() < cap) {
                kept.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            kept.write(b, off, Math.max(0, Math.min(len, cap - kept.size())));
        }
    }

    /** Runs every test of a job; returns true when the JVM can no longer be trusted. */
    static boolean runTests(Job job) {
        PrintStream savedOut = System.out, savedErr = System.err;
        InputStream savedIn = System.in;
        try {
            for (byte[] input : job.tests) {
                Result result = runOne(job, input);
                job.results.add(result);
                if (result.outcome == TIMED_OUT || result.leftThreadsRunning
                        || result.exception.equals("java.lang.OutOfMemoryError")) {
                    return true;
                }
            }
            return false;
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.setIn(savedIn);
        }
    }

    static Result runOne(Job job, byte[] input) {
        Result result = new Result();
        CappedStream stdout = new CappedStream(job.outputCap);
        PrintStream printer = new PrintStream(stdout, false, StandardCharsets.UTF_8);
        System.setIn(new ByteArrayInputStream(input));
        System.setOut(printer);
        System.setErr(new PrintStream(OutputStream.nullOutputStream()));
        ProgramThreads program = new ProgramThreads(result);
        Thread runner = new Thread(program, () -> {
            try {
                Class<?> main = Class.forName(job.mainClass, true, new JobLoader(job.classes));
                java.lang.reflect.Method entry = main.getMethod("main", String[].class);
                entry.setAccessible(true);  // like the java launcher, run main of a non-public class too
                entry.invoke(null, (Object) new String[0]);
            } catch (Throwable thrown) {
                program.end(thrown);
            }
        }, "judged-main", STACK_BYTES);
        runner.setDaemon(true);
        long start = System.nanoTime();
        long deadline = start + job.timeLimitMs * 1_000_000L;
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
        alive = program.firstAlive();
        if (alive != null && !program.ended) {
            result.outcome = TIMED_OUT;
        }
        result.leftThreadsRunning = alive != null;
        printer.flush();
        result.stdout = stdout.kept.toByteArray();
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
