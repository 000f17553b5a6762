package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * What the audit finds in a class's static state, on classes it only reads (none of them is initialized).
 */
class StaticStateAuditTest {

    private static final ClassLoader LOADER = StaticStateAuditTest.class.getClassLoader();

    static final class SeededRandom {
        static final Random RANDOM = new Random();
    }

    static final class StartedAt {
        static final long STARTED = System.nanoTime();
    }

    static final class Pool {
        static final Object POOL = Executors.newSingleThreadExecutor();
    }

    static final class ThroughAHelper {
        static final Object ID = id();

        private static Object id() {
            return UUID.randomUUID();
        }
    }

    static final class Deferred {
        static final ThreadLocal<Set<String>> RUNNING = ThreadLocal.withInitial(HashSet::new);
        static final Pattern WORDS = Pattern.compile("\\w+");
        static final Supplier<Random> LATER = () -> new Random();
        final Random perInstance = new Random();
    }

    @Test
    void findsGeneratorsClockReadingsAndExecutorsInStaticState() {
        assertThat(scan(SeededRandom.class)).containsExactly(
                "static field RANDOM holds randomness (java.util.Random)",
                "static initializer creates randomness (java.util.Random)");
        assertThat(scan(StartedAt.class))
                .containsExactly("static initializer takes a clock reading (java.lang.System.nanoTime)");
        assertThat(scan(Pool.class)).containsExactly("static initializer obtains an executor "
                + "(java.util.concurrent.ExecutorService) from java.util.concurrent.Executors.newSingleThreadExecutor");
    }

    @Test
    void followsTheStaticMethodsOfItsOwnThatTheInitializerCalls() {
        assertThat(scan(ThroughAHelper.class))
                .containsExactly("static method id takes randomness (java.util.UUID.randomUUID)");
    }

    @Test
    void leavesWhatRunsLaterOrPerInstance() {
        assertThat(scan(Deferred.class)).isEmpty();
    }

    private static Set<String> scan(Class<?> type) {
        return StaticStateAudit.scan(type.getName(), LOADER);
    }
}
