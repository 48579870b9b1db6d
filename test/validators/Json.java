import java.util.*;

/** Just enough JSON for SignatureCheck's report: maps, lists, strings, numbers, booleans, int arrays. */
class Json {
    static String write(Object o) {
        StringBuilder s = new StringBuilder();
        write(o, s);
        return s.toString();
    }

    static void write(Object o, StringBuilder s) {
        if (o == null) s.append("null");
        else if (o instanceof Boolean || o instanceof Number) s.append(o);
        else if (o instanceof int[] a) { List<Integer> l = new ArrayList<>(); for (int x : a) l.add(x); write(l, s); }
        else if (o instanceof Map<?, ?> m) {
            s.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) s.append(',');
                first = false;
                string(String.valueOf(e.getKey()), s);
                s.append(':');
                write(e.getValue(), s);
            }
            s.append('}');
        } else if (o instanceof Collection<?> c) {
            s.append('[');
            boolean first = true;
            for (Object x : c) { if (!first) s.append(','); first = false; write(x, s); }
            s.append(']');
        } else string(o.toString(), s);
    }

    static void string(String v, StringBuilder s) {
        s.append('"');
        for (char c : v.toCharArray()) {
            if (c == '"' || c == '\\') s.append('\\').append(c);
            else if (c < 0x20) s.append(String.format("\\u%04x", (int) c));
            else s.append(c);
        }
        s.append('"');
    }
}
