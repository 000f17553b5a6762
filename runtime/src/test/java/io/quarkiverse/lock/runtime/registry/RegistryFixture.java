package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * JUnit extension for tests that drive a real {@link DefaultLockRegistry}: before each test it starts a Vert.x
 * instance (and, when {@linkplain #inMemory() made with a store}, one registry on it); after each test it closes what
 * the test asked it to, last opened first, then the registries and Vert.x. Register it per test instance:
 *
 * <pre>
 * &#64;RegisterExtension
 * final RegistryFixture locks = RegistryFixture.inMemory();
 * </pre>
 */
public class RegistryFixture implements BeforeEachCallback, AfterEachCallback {

    /** How long a test waits for one operation's answer. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final BiFunction<Vertx, LockStore, LockStore> store;
    private final Duration operationTimeout;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Vertx vertx;
    private LocalLockStates states;
    private DefaultLockRegistry registry;

    /**
     * @param store the store of the registry started before each test, made from Vert.x and an in-memory store;
     *        {@code null} to start none
     * @param operationTimeout that registry's operation timeout
     */
    protected RegistryFixture(BiFunction<Vertx, LockStore, LockStore> store, Duration operationTimeout) {
        this.store = store;
        this.operationTimeout = operationTimeout;
    }

    /**
     * @return a fixture that starts, before each test, a registry on an in-memory store (lease 10 s, wait 1 s,
     *         operation timeout 5 s)
     */
    public static RegistryFixture inMemory() {
        return new RegistryFixture((vertx, inMemory) -> inMemory, Duration.ofSeconds(5));
    }

    /**
     * @return a fixture that starts only Vert.x before each test, and closes it after
     */
    public static RegistryFixture vertxOnly() {
        return new RegistryFixture(null, Duration.ofSeconds(5));
    }

    /**
     * @param decorator wraps the in-memory store (given Vert.x, for timers) in the store the registry uses
     * @return a fixture like this one whose registry uses the decorated store
     */
    public RegistryFixture decorating(BiFunction<Vertx, LockStore, LockStore> decorator) {
        return new RegistryFixture(decorator, operationTimeout);
    }

    /**
     * @param timeout the operation timeout of the registry started before each test
     * @return a fixture like this one with that operation timeout
     */
    public RegistryFixture withOperationTimeout(Duration timeout) {
        return new RegistryFixture(store, timeout);
    }

    /**
     * @param defaultLease the lease of an acquisition that names none
     * @param defaultWait the wait of an acquisition that names none
     * @param operationTimeout how long one store operation may take
     * @return settings with the {@code lock:} prefix, no lease renewal by default and a 1 s idle eviction period
     */
    public static LockSettings settings(Duration defaultLease, Duration defaultWait, Duration operationTimeout) {
        return new LockSettings(defaultLease, defaultWait, Duration.ofSeconds(1), "lock:", false, operationTimeout);
    }

    /**
     * Starts a registry with its own local states and a backoff wait strategy; the caller closes it.
     *
     * @return the registry, started
     */
    public static DefaultLockRegistry started(LockStore store, LockSettings settings, LocalLockStates states,
            Vertx vertx) {
        DefaultLockRegistry registry = new DefaultLockRegistry(store, settings, new BackoffWaitStrategy(vertx), states,
                vertx);
        registry.start();
        return registry;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        vertx = Vertx.vertx();
        if (store != null) {
            states = new LocalLockStates();
            registry = start(store.apply(vertx, new InMemoryLockStore(InstantSource.system())),
                    settings(Duration.ofSeconds(10), Duration.ofSeconds(1), operationTimeout), states);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            try {
                closing.get(i).close();
            } catch (Exception ignored) {
                // closing is all that is asked
            }
        }
        closing.clear();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /**
     * Starts a registry on this fixture's Vert.x, closed after the test.
     *
     * @return the registry, started
     */
    public DefaultLockRegistry start(LockStore store, LockSettings settings, LocalLockStates states) {
        DefaultLockRegistry started = started(store, settings, states, vertx);
        closeAfterEach(started::close);
        return started;
    }

    /**
     * @param closeable closed after the test, before what was registered earlier
     * @param <T> its type
     * @return {@code closeable}
     */
    public <T extends AutoCloseable> T closeAfterEach(T closeable) {
        closing.add(closeable);
        return closeable;
    }

    /**
     * @return the Vert.x instance started before the test
     */
    public Vertx vertx() {
        return vertx;
    }

    /**
     * @return the registry started before the test
     */
    public DefaultLockRegistry registry() {
        return registry;
    }

    /**
     * @return the local lock states of the registry started before the test
     */
    public LocalLockStates states() {
        return states;
    }

    /**
     * Asserts that another handle acquires {@code key} within 5 s (failed attempts are retried), then releases it:
     * nobody is left holding the lock once a fault is over.
     */
    public static void assertAcquirableSoon(DefaultLockRegistry registry, String key) {
        ReactiveDistributedLock other = registry.obtain(key);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        boolean acquired = false;
        while (!acquired && System.nanoTime() < deadline) {
            acquired = await(other.acquireOnce().onFailure(LockException.class).recoverWithItem(false));
            if (!acquired) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        assertThat(acquired).as("nobody holds '%s' once the fault is over", key).isTrue();
        assertThat(await(other.release())).isTrue();
    }

    /**
     * @return the item, waited for at most {@link #TIMEOUT}
     */
    public static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }
}
