package io.quarkiverse.lock.spi;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.migration.LockMigrator;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.leadership.DefaultLeadership;
import io.quarkiverse.lock.runtime.leadership.LeadershipSettings;
import io.quarkiverse.lock.runtime.migration.StoreLockMigrator;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.StoreLockAdmin;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.IdleLockEvictor;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.vertx.core.Vertx;

/**
 * The registry an application gets, built over a given {@link LockStore} without a Quarkus application: the same
 * locks, waiting, lease renewal, take-backs, operation timeout and idle-state eviction. It is how a store's tests (the
 * store TCK, a fault harness, a benchmark) stand up application instances on the store under test:
 *
 * <pre>
 * try (StandaloneLockRegistry locks = StandaloneLockRegistry.over(store, vertx)
 *         .settings(LockRegistrySettings.defaults().withOperationTimeout(Duration.ofSeconds(1)))
 *         .start()) {
 *     locks.obtain("report").acquireOnce().await().indefinitely();
 * }
 * </pre>
 *
 * The registry owns the store it was built over: {@link Builder#start()} starts it, and {@link #close()} closes it.
 * Each registry stands for one application instance with local state of its own, unless it is given a
 * {@link SharedLocalState} (see there when that is needed).
 */
public final class StandaloneLockRegistry implements LockRegistry, AutoCloseable {

    private final DefaultLockRegistry registry;
    private final IdleLockEvictor evictor;
    private final LockMigrator migrator;
    private final LockAdmin admin;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<DefaultLeadership> leaderships = new CopyOnWriteArrayList<>();

    private StandaloneLockRegistry(DefaultLockRegistry registry, IdleLockEvictor evictor) {
        this.registry = registry;
        this.evictor = evictor;
        this.migrator = new StoreLockMigrator(registry);
        this.admin = new StoreLockAdmin(registry);
    }

    /**
     * Begins a registry over a store.
     *
     * @param store where the locks live, not started yet: the registry starts and closes it
     * @param vertx the Vert.x instance whose timers drive waiting, lease renewal and eviction; the caller closes it
     *        after the registry
     * @return a builder with {@link LockRegistrySettings#defaults() the default settings}, local state of its own and
     *         the production pace of waiting
     * @throws IllegalArgumentException if the store or Vert.x is {@code null}
     */
    public static Builder over(LockStore store, Vertx vertx) {
        if (store == null || vertx == null) {
            throw new IllegalArgumentException("store and vertx must not be null");
        }
        return new Builder(store, vertx);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if the key is {@code null}, blank or longer than {@link #MAX_KEY_LENGTH}, or
     *         the type is {@code null}
     */
    @Override
    public ReactiveDistributedLock obtain(String key, LockType type) {
        return registry.obtain(key, type);
    }

    /**
     * @return the migrator ({@code io.quarkiverse.lock.migration}) whose runs hold their lock, and keep their records,
     *         in this registry's store
     */
    public LockMigrator migrator() {
        return migrator;
    }

    /**
     * @return the administration of the locks held in this registry's store, by every instance, as the application's
     *         {@link LockAdmin} bean: its operations bounded by the operation timeout
     */
    public LockAdmin admin() {
        return admin;
    }

    /**
     * Declares one leadership group of this instance over its locks, as an application's configuration does
     * ({@code quarkus.lock.leadership."<group>".*}), not joined yet. Its changes are told only to the stream of
     * {@link Leadership#changes()}. Closing this registry ends its terms with {@code SHUTDOWN} first, releasing their
     * locks, as an application's graceful shutdown does.
     *
     * @param group the group's name
     * @param lease the lease of the group's lock
     * @param renewInterval how often the leader renews it
     * @param safetyMargin how long before the lease's end the leader stops believing it leads
     * @return the leadership holding that one group
     * @throws IllegalArgumentException if a duration is invalid (as the configuration would be refused)
     */
    public Leadership leadership(String group, Duration lease, Duration renewInterval, Duration safetyMargin) {
        DefaultLeadership leadership = new DefaultLeadership(registry, admin,
                Map.of(group, new LeadershipSettings(lease, renewInterval, safetyMargin)), Set.of(group), change -> {
                }, registry.observer());
        leaderships.add(leadership);
        return leadership;
    }

    /**
     * Ends the terms of this instance's leadership groups (releasing their locks), stops the idle-state eviction,
     * stops listening to release notifications and every lease renewal (the locks this registry still holds then free
     * when their leases run out, as they would if the application crashed), and closes the store. A second call does
     * nothing.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            leaderships.forEach(DefaultLeadership::close);
            evictor.stop();
            registry.close();
        }
    }

    /**
     * How the registry is made: its settings, its pace of waiting and whose local state it shares. Used once.
     */
    public static final class Builder {

        private final LockStore store;
        private final Vertx vertx;
        private LockRegistrySettings settings = LockRegistrySettings.defaults();
        private SharedLocalState localState;
        private WaitStrategy waitStrategy;

        private Builder(LockStore store, Vertx vertx) {
            this.store = store;
            this.vertx = vertx;
        }

        /**
         * @param settings the defaults and timeouts the registry runs with
         * @return this builder
         * @throws IllegalArgumentException if they are {@code null}
         */
        public Builder settings(LockRegistrySettings settings) {
            if (settings == null) {
                throw new IllegalArgumentException("settings must not be null");
            }
            this.settings = settings;
            return this;
        }

        /**
         * Shares the local state of other registries, as the registries of one application do; needed when every
         * instance of the store lives in this JVM (see {@link SharedLocalState}).
         *
         * @param state the state to share, or {@code null} for one of this registry's own (the default)
         * @return this builder
         */
        public Builder sharing(SharedLocalState state) {
            this.localState = state;
            return this;
        }

        /**
         * Sets how often the first waiter in line asks the store again while the lock stays held: its first pause
         * lasts up to {@code first}, each further one twice as long up to {@code longest} (each a random time between
         * half and all of that ceiling, never past the holder's lease or the caller's wait), whether or not the store
         * announces releases. Without this call the registry waits as in production: 2 ms to 64 ms, and up to 250 ms
         * while the store announces every release. Slow polls (an hour) let a test prove that a waiter was woken by a
         * release notification, not by a poll.
         *
         * @param first the ceiling of the first pause, at least 1 ms
         * @param longest the ceiling of every later pause, at least {@code first}
         * @return this builder
         * @throws IllegalArgumentException if a pause is {@code null}, {@code first} is under 1 ms or {@code longest}
         *         is shorter than {@code first}
         */
        public Builder pollBetweenAttempts(Duration first, Duration longest) {
            if (first == null || longest == null || first.toMillis() < 1 || longest.compareTo(first) < 0) {
                throw new IllegalArgumentException("pauses must be at least 1 ms, the longest at least the first, "
                        + "but are " + first + " and " + longest);
            }
            this.waitStrategy = new BackoffWaitStrategy(vertx, first.toMillis(), longest.toMillis());
            return this;
        }

        /**
         * Builds the registry and starts it: the store, listening to its release notifications, and the idle-state
         * eviction. The caller closes it.
         *
         * @return the registry, ready for use
         * @throws RuntimeException whatever starting the store throws (the store is then closed)
         */
        public StandaloneLockRegistry start() {
            SharedLocalState state = localState != null ? localState : new SharedLocalState();
            WaitStrategy pace = waitStrategy != null ? waitStrategy : new BackoffWaitStrategy(vertx);
            LockSettings lockSettings = new LockSettings(settings.expireAfter(), settings.waitTimeout(),
                    settings.evictIdleInterval(), settings.keyPrefix(), settings.renewLease(),
                    settings.operationTimeout());
            DefaultLockRegistry registry = new DefaultLockRegistry(store, lockSettings, pace, state.states(), vertx);
            try {
                registry.start();
            } catch (RuntimeException e) {
                try {
                    registry.close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
            IdleLockEvictor evictor = new IdleLockEvictor(state.states(), vertx, settings.evictIdleInterval());
            evictor.start();
            return new StandaloneLockRegistry(registry, evictor);
        }
    }
}
