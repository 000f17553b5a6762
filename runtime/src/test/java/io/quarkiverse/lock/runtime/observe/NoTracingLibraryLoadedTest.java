package io.quarkiverse.lock.runtime.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

/**
 * Without {@code quarkus-opentelemetry} the registry uses {@link LockTracer#NONE}, and none of the lock's classes
 * loads an OpenTelemetry class, although the OpenTelemetry API is on this module's test class path (it is an optional
 * dependency of the runtime). The lock's classes are defined by a class loader of their own, which records every
 * class they ask for; a class they name is resolved through it.
 */
class NoTracingLibraryLoadedTest {

    private static final String LOCK_PACKAGE = "io.quarkiverse.lock.";
    private static final String OPEN_TELEMETRY = "io.opentelemetry.";

    @Test
    void acquisitionsAndGuardedSectionsLoadNoOpenTelemetryClass() throws Exception {
        RecordingClassLoader loader = new RecordingClassLoader(getClass().getClassLoader());
        Runnable scenario = (Runnable) loader.loadClass(TracingFreeScenario.class.getName()).getDeclaredConstructor()
                .newInstance();

        scenario.run();

        assertThat(loader.requested).as("classes the lock's code asked for")
                .contains("io.quarkiverse.lock.runtime.registry.ClaimedAcquisition",
                        "io.quarkiverse.lock.runtime.registry.GuardedExecution",
                        "io.quarkiverse.lock.runtime.registry.BlockingLockView")
                .noneMatch(name -> name.startsWith(OPEN_TELEMETRY));
    }

    @Test
    void theRecordingSeesOpenTelemetryClassesThatLockCodeNames() throws Exception {
        RecordingClassLoader loader = new RecordingClassLoader(getClass().getClassLoader());
        loader.loadClass("io.quarkiverse.lock.runtime.tracing.OpenTelemetryLockTracer").getDeclaredConstructors();

        assertThat(loader.requested).as("classes the OpenTelemetry tracer asked for")
                .anyMatch(name -> name.startsWith(OPEN_TELEMETRY));
    }

    /** Defines the lock's classes itself, and records each class that one of them asks for. */
    private static final class RecordingClassLoader extends ClassLoader {

        final Set<String> requested = ConcurrentHashMap.newKeySet();

        RecordingClassLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            requested.add(name);
            if (!name.startsWith(LOCK_PACKAGE)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] bytes = bytes(name);
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private byte[] bytes(String name) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
