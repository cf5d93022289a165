package dynbench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
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
 * A warm compiler: batches of translations are compiled in memory by one javax.tools call each (in
 * rounds that set aside the sources with errors); it never runs what it compiles. Each compiled
 * program then runs in a fresh JVM of its own ({@link Runner}).
 *
 * <p>Request: job count, then per job: id, source count and (path, text) pairs. Reply per job: id,
 * status (0 compiled, 1 compile error), diagnostics, class count and (binary name, bytes) pairs. Before
 * the replies, while it compiles: {@link #WORKING_ON} and a job's id each time javac turns to another
 * job's source, so that a source javac spends too long on is known by its job alone (``judge/pool.py``).
 */
public final class CompileServer {
    static final int COMPILED = 0, COMPILE_ERROR = 1;
    static final int WORKING_ON = -1;  // never a string's length

    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in)));
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
            compile(compiler, jobs, new Progress(out, jobs));
            for (Job job : jobs) {
                Wire.writeString(out, job.id);
                out.writeInt(job.status);
                Wire.writeString(out, job.diagnostics);
                out.writeInt(job.classes.size());
                for (Map.Entry<String, byte[]> entry : job.classes.entrySet()) {
                    Wire.writeString(out, entry.getKey());
                    Wire.writeBytes(out, entry.getValue());
                }
            }
            out.flush();
        }
    }

    static final class Job {
        String id;
        String packageName;
        Map<String, String> sources = new HashMap<>();
        int status = COMPILED;
        String diagnostics = "";
        Map<String, byte[]> classes = new HashMap<>();
    }

    static List<Job> readJobs(DataInputStream in) throws IOException {
        int count = in.readInt();
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Job job = new Job();
            job.id = Wire.readString(in);
            job.packageName = Wire.readString(in);
            int sources = in.readInt();
            for (int s = 0; s < sources; s++) {
                job.sources.put(Wire.readString(in), Wire.readString(in));
            }
            jobs.add(job);
        }
        return jobs;
    }

    static final class Source extends SimpleJavaFileObject {
        final Job job;
        final String text;

        Source(Job job, String path, String text) {
            super(uri(path), Kind.SOURCE);
            this.job = job;
            this.text = text;
        }

        static URI uri(String path) {
            return URI.create("mem:///" + path);
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    /** Reports each job javac turns to (parsing, analysing or generating its source). */
    static final class Progress implements TaskListener {
        final DataOutputStream out;
        final Map<URI, Job> jobs = new HashMap<>();  // javac hands listeners its own wrappers of our sources
        Job reported;

        Progress(DataOutputStream out, List<Job> batch) {
            this.out = out;
            for (Job job : batch) {
                for (String path : job.sources.keySet()) {
                    jobs.put(Source.uri(path), job);
                }
            }
        }

        @Override
        public void started(TaskEvent event) {
            Job job = event.getSourceFile() == null ? null : jobs.get(event.getSourceFile().toUri());
            if (job == null || job == reported) {
                return;
            }
            reported = job;
            try {
                out.writeInt(WORKING_ON);
                Wire.writeString(out, reported.id);
                out.flush();
            } catch (IOException gone) {  // the judge stopped listening: it ends this JVM
                Runtime.getRuntime().halt(4);
            }
        }

        /** The task, reporting: its first source is reported, even where the last task ended with its job. */
        JavaCompiler.CompilationTask watching(JavaCompiler.CompilationTask task) {
            reported = null;
            ((JavacTask) task).addTaskListener(this);
            return task;
        }
    }

    /** Each job's sources compiled on their own, so one job cannot fail the others of its batch. */
    static void compileAlone(JavaCompiler compiler, JavaFileManager memory, List<String> options,
                             List<Source> pending, Map<String, ByteArrayOutputStream> output, Progress progress) {
        Map<Job, List<Source>> byJob = new java.util.LinkedHashMap<>();
        for (Source source : pending) {
            byJob.computeIfAbsent(source.job, job -> new ArrayList<>()).add(source);
        }
        for (Map.Entry<Job, List<Source>> entry : byJob.entrySet()) {
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            JavaCompiler.CompilationTask task = compiler.getTask(null, memory, diagnostics, options, null,
                                                                 entry.getValue());
            if (!progress.watching(task).call()) {
                entry.getKey().status = COMPILE_ERROR;
                entry.getKey().diagnostics = diagnostics.getDiagnostics().toString();
            }
        }
    }

    static void compile(JavaCompiler compiler, List<Job> jobs, Progress progress) {
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
        // Inline string concatenation: the default (an invokedynamic bootstrap) costs each fresh JVM milliseconds.
        List<String> options = List.of("-proc:none", "-g:source,lines", "-Xlint:none", "-nowarn", "-encoding", "UTF-8",
                                       "-XDstringConcat=inline");
        while (!pending.isEmpty()) {
            output.clear();
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            boolean ok = progress.watching(compiler.getTask(null, memory, diagnostics, options, null, pending)).call();
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
            if (failed.isEmpty()) {  // an error no source owns: find whose, one job at a time
                compileAlone(compiler, memory, options, pending, output, progress);
                break;
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
}
