package dynbench;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * What a judged harness reports instead of a verdict: the values its calls produced, as text. The
 * comparison with the reference happens outside the JVM; the reference is never in it. A program
 * that writes here itself only reports values it could have returned.
 */
public final class Record {
    static final int VALUE_CHARS = 100_000, VALUES = 10_000;
    private static final List<String> values = new ArrayList<>();
    /** What the runner and a program's threads take turns on: an object no program can reach (the class
     *  itself it can, and holding its monitor would keep the runner from replying). */
    private static final Object LOCK = new Object();

    private Record() {}

    static List<String> drain() {
        synchronized (LOCK) {
            List<String> taken = new ArrayList<>(values);
            values.clear();
            return taken;
        }
    }

    private static void add(String text) {
        synchronized (LOCK) {
            if (values.size() < VALUES) {
                values.add(text.length() <= VALUE_CHARS ? text : text.substring(0, VALUE_CHARS));
            }
        }
    }

    public static void value(long v) { add("i:" + v); }
    public static void value(int v) { add("i:" + v); }
    public static void value(short v) { add("i:" + v); }
    public static void value(byte v) { add("i:" + v); }
    public static void value(double v) { add("d:" + Double.toString(v)); }
    public static void value(float v) { add("d:" + Double.toString(v)); }
    public static void value(boolean v) { add("b:" + v); }
    public static void value(char v) { add("c:" + (int) v); }
    public static void value(Object v) { add(text(v, 0)); }

    static String text(Object v, int depth) {
        if (v == null) {
            return "n:";
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return "i:" + v;
        }
        if (v instanceof Double || v instanceof Float) {
            return "d:" + Double.toString(((Number) v).doubleValue());
        }
        if (v instanceof Boolean) {
            return "b:" + v;
        }
        if (v instanceof Character) {
            return "c:" + (int) (Character) v;
        }
        if (v instanceof String) {
            return "s:" + v;
        }
        if (v.getClass().isArray() && depth < 8) {
            StringBuilder out = new StringBuilder("a:[");
            int length = Array.getLength(v);
            for (int i = 0; i < length && out.length() < VALUE_CHARS; i++) {
                out.append(i == 0 ? "" : ",").append(text(Array.get(v, i), depth + 1));
            }
            return out.append("]").toString();
        }
        if (v instanceof Iterable && depth < 8) {
            StringBuilder out = new StringBuilder("l:[");
            boolean first = true;
            for (Object item : (Iterable<?>) v) {
                if (out.length() >= VALUE_CHARS) {
                    break;
                }
                out.append(first ? "" : ",").append(text(item, depth + 1));
                first = false;
            }
            return out.append("]").toString();
        }
        return "o:" + v.getClass().getName();
    }
}
