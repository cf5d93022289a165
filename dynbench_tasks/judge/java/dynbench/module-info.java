/**
 * The judge's own classes. Judged programs run in unnamed modules that read this one: they reach the
 * public API they are compiled against ({@link dynbench.Exit}, {@link dynbench.Record}), but no
 * reflection opens what the runner keeps of a test (the package is exported, never opened).
 */
module dynbench {
    exports dynbench;
    requires java.compiler;
}
