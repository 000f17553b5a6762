package io.quarkiverse.lock.testsupport;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Reads a class for {@link StaticStateAudit}: its static fields' types, and what each static method creates and calls.
 */
final class StaticStateSummary extends ClassVisitor {

    private static final String CLASS_INITIALIZER = "<clinit>";

    private final HazardTypes types;
    private String owner;
    private final Set<String> fieldReasons = new LinkedHashSet<>();
    private final Map<String, Set<String>> methodReasons = new HashMap<>();
    private final Map<String, Set<String>> ownStaticCalls = new HashMap<>();

    StaticStateSummary(HazardTypes types) {
        super(Opcodes.ASM9);
        this.types = types;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName,
            String[] interfaces) {
        owner = name;
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        if ((access & Opcodes.ACC_STATIC) != 0) {
            String what = types.hazard(Type.getType(descriptor));
            if (what != null) {
                fieldReasons.add("static field " + name + " holds " + what);
            }
        }
        return null;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
            String[] exceptions) {
        if ((access & Opcodes.ACC_STATIC) == 0) {
            return null;
        }
        String method = name + descriptor;
        Set<String> reasons = methodReasons.computeIfAbsent(method, m -> new LinkedHashSet<>());
        Set<String> calls = ownStaticCalls.computeIfAbsent(method, m -> new LinkedHashSet<>());
        String where = CLASS_INITIALIZER.equals(name) ? "static initializer" : "static method " + name;
        return new MethodVisitor(Opcodes.ASM9) {
            @Override
            public void visitTypeInsn(int opcode, String type) {
                if (opcode == Opcodes.NEW) {
                    String what = types.hazard(type);
                    if (what != null) {
                        reasons.add(where + " creates " + what);
                    }
                }
            }

            @Override
            public void visitMethodInsn(int opcode, String callee, String calleeName, String calleeDescriptor,
                    boolean isInterface) {
                String reading = StaticStateAudit.READINGS.get(callee + "." + calleeName);
                if (reading == null) {
                    reading = StaticStateAudit.READINGS.get(callee + "." + calleeName + calleeDescriptor);
                }
                if (reading == null && callee.startsWith("java/time/") && calleeName.equals("now")) {
                    reading = "a clock reading";
                }
                if (reading != null) {
                    reasons.add(where + " takes " + reading + " (" + callee.replace('/', '.') + "."
                            + calleeName + ")");
                }
                if (!"<init>".equals(calleeName)) {
                    String what = types.hazard(Type.getReturnType(calleeDescriptor));
                    if (what != null) {
                        reasons.add(where + " obtains " + what + " from " + callee.replace('/', '.') + "."
                                + calleeName);
                    }
                }
                if (opcode == Opcodes.INVOKESTATIC && callee.equals(owner)) {
                    calls.add(calleeName + calleeDescriptor);
                }
            }
        };
    }

    /** The static fields' reasons, and those of the initializer and of the own static methods it reaches. */
    Set<String> reasons() {
        Set<String> all = new LinkedHashSet<>(fieldReasons);
        Deque<String> toVisit = new ArrayDeque<>();
        Set<String> visited = new HashSet<>();
        methodReasons.keySet().stream().filter(m -> m.startsWith(CLASS_INITIALIZER + "(")).forEach(toVisit::add);
        while (!toVisit.isEmpty()) {
            String method = toVisit.pop();
            if (visited.add(method)) {
                all.addAll(methodReasons.getOrDefault(method, Set.of()));
                toVisit.addAll(ownStaticCalls.getOrDefault(method, Set.of()));
            }
        }
        return all;
    }
}
