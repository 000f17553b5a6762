package io.quarkiverse.lock.deployment;

import java.util.ArrayList;
import java.util.List;

/**
 * The lock key of a {@code @Locked} method, compiled from its template at build time: literal parts with the
 * positions of the parameters whose values go between them.
 *
 * @param literals the literal parts, one more than the positions
 * @param positions the parameter positions
 */
record LockKeyTemplate(List<String> literals, List<Short> positions) {

    /**
     * Compiles a template such as {@code "order-{orderId}"}.
     *
     * @param template the template
     * @param parameterNames the method's parameter names in order ({@code null} entries when unknown)
     * @return the compiled key
     * @throws IllegalArgumentException saying what is wrong: a brace without its pair, an empty {@code {}}, or a name
     *         that is not a parameter
     */
    static LockKeyTemplate compile(String template, List<String> parameterNames) {
        List<String> literals = new ArrayList<>();
        List<Short> positions = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '}') {
                throw new IllegalArgumentException("the key template \"" + template + "\" has a '}' without its '{' "
                        + "at index " + i);
            }
            if (c != '{') {
                literal.append(c);
                i++;
                continue;
            }
            int end = template.indexOf('}', i + 1);
            int nestedOpen = template.indexOf('{', i + 1);
            if (end < 0 || (nestedOpen >= 0 && nestedOpen < end)) {
                throw new IllegalArgumentException("the key template \"" + template + "\" has a '{' without its '}' "
                        + "at index " + i);
            }
            String name = template.substring(i + 1, end).trim();
            if (name.isEmpty()) {
                throw new IllegalArgumentException("the key template \"" + template + "\" has an empty {} at index "
                        + i);
            }
            int position = parameterNames.indexOf(name);
            if (position < 0) {
                throw new IllegalArgumentException("the key template \"" + template + "\" names the parameter '"
                        + name + "', but the method's parameters are " + parameterNames
                        + (parameterNames.contains(null) ? " (compile with -parameters to keep their names)" : ""));
            }
            literals.add(literal.toString());
            literal.setLength(0);
            positions.add((short) position);
            i = end + 1;
        }
        literals.add(literal.toString());
        return new LockKeyTemplate(literals, positions);
    }

    /**
     * The default key: the declaring class and method name, followed by the values of the {@code @LockKey}
     * parameters, separated by ':'.
     *
     * @param methodName the declaring class's name, '.', the method's name
     * @param lockKeyPositions the positions of the parameters annotated {@code @LockKey}, in order
     * @return the compiled key
     */
    static LockKeyTemplate byDefault(String methodName, List<Short> lockKeyPositions) {
        List<String> literals = new ArrayList<>();
        literals.add(lockKeyPositions.isEmpty() ? methodName : methodName + ":");
        for (int i = 0; i < lockKeyPositions.size(); i++) {
            literals.add(i == lockKeyPositions.size() - 1 ? "" : ":");
        }
        return new LockKeyTemplate(literals, List.copyOf(lockKeyPositions));
    }

    String[] literalArray() {
        return literals.toArray(new String[0]);
    }

    short[] positionArray() {
        short[] array = new short[positions.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = positions.get(i);
        }
        return array;
    }
}
