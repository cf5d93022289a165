/**
 * The judge's own classes. Judged programs run in unnamed modules that read this one: they reach the
 * public API they are compiled against ({@link dynbench.Exit}, {@link dynbench.Record}), but no
 * reflection opens what the runner keeps of a test (the package is exported, never opened). It
 * requires the Java SE modules, which programs may use (not jdk.unsupported: no sun.misc.Unsafe, which
 * would reach past the module boundary), so that a runtime image linked for the runner holds them.
 * The compiler's progress reports ({@link CompileServer}) need javac's own API at compile time only: the
 * compiler runs from the class path, and a runtime linked for the runner leaves javac out.
 */
module dynbench {
    exports dynbench;
    requires java.compiler;
    requires java.se;
    requires static jdk.compiler;
}
