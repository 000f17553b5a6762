package io.quarkiverse.lock.testsupport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.objectweb.asm.Type;

/**
 * Which types are hazards ({@link StaticStateAudit#HAZARDS}), by loading them (without initializing) from the
 * application's class loader.
 */
final class HazardTypes {

    private final ClassLoader loader;
    private final Map<String, String> known = new HashMap<>();
    private final List<Map.Entry<Class<?>, String>> hazards = new ArrayList<>();

    HazardTypes(ClassLoader loader) {
        this.loader = loader;
        StaticStateAudit.HAZARDS.forEach((name, what) -> {
            Class<?> type = load(name);
            if (type != null) {
                hazards.add(Map.entry(type, what));
            }
        });
    }

    /**
     * @param internalName a class's internal name, such as {@code java/util/Random}
     * @return what the type is, if a hazard, else {@code null}
     */
    String hazard(String internalName) {
        return known.computeIfAbsent(internalName, name -> {
            Class<?> type = load(name.replace('/', '.'));
            if (type == null) {
                return "";
            }
            for (Map.Entry<Class<?>, String> hazard : hazards) {
                if (hazard.getKey().isAssignableFrom(type)) {
                    return hazard.getValue() + " (" + type.getName() + ")";
                }
            }
            return "";
        }).transform(what -> what.isEmpty() ? null : what);
    }

    /**
     * @param type a type as ASM sees it
     * @return what it is, if a hazard (or an array of one), else {@code null}
     */
    String hazard(Type type) {
        Type element = type.getSort() == Type.ARRAY ? type.getElementType() : type;
        return element.getSort() == Type.OBJECT ? hazard(element.getInternalName()) : null;
    }

    private Class<?> load(String name) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError absent) {
            return null;
        }
    }
}
