package io.quarkiverse.lock.deployment.postgresql;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.BoundedFailure;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Statements whose replies are lost on a connection that stays open (a proxy drops every server message answering
 * them, and nothing else): the statement ran, nothing came back, and the statement never ends by itself.
 */
class PostgresLostReplyTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MARGIN = Duration.ofSeconds(2);
    private static final Duration RECOVERY = Duration.ofSeconds(5);
    /** More than the pool's connections left once the listener and the abandoned grant hold theirs. */
    private static final int TERMINATIONS_DROPPED = 3;
    /** Keys whose lock statements lose their replies at once: more than the store's connections. */
    private static final int ABANDONED_KEYS = 6;

    @RegisterExtension
    final PostgresFaults postgres = new PostgresFaults();

    /**
     * A one-try {@code acquireForever} whose grant committed but whose reply is lost: the caller fails within the
     * operation timeout, the grant is taken back (another instance gets the lock once the first lets it go), and the
     * same instance can use the key again within a few seconds of the network healing.
     */
    @Test
    void aLostGrantIsTakenBackAndTheKeyWorksAgain() throws Exception {
        AtomicBoolean dropping = new AtomicBoolean();
        AtomicBoolean committed = new AtomicBoolean();
        Set<Integer> executing = ConcurrentHashMap.newKeySet();
        // the statement is prepared, then bound and run: only the replies of the run are dropped, so it commits;
        // the acquisition's statements are upserts (the fast path grants a key nobody waits for)
        FaultProxy proxy = postgres.proxy().rule(exchange -> {
            if (!dropping.get() || exchange.request() == null
                    || !exchange.request().contains("ON CONFLICT (lock_key) DO UPDATE")) {
                return Fault.pass();
            }
            if (exchange.reply().equals("BindComplete")) {
                executing.add(exchange.connection());
            }
            if (!executing.contains(exchange.connection())) {
                return Fault.pass();
            }
            if (exchange.reply().startsWith("CommandComplete INSERT")) {
                committed.set(true);
            }
            return Fault.drop();
        });
        String table = PostgresFaults.table();
        PostgresLockStore store = postgres.store(proxy.port(), table, true, OPERATION_TIMEOUT);
        DefaultLockRegistry registry = postgres.registry(store, OPERATION_TIMEOUT);
        DefaultLockRegistry other = postgres.registry(
                postgres.store(PostgresServer.shared().port(), table, false, OPERATION_TIMEOUT), OPERATION_TIMEOUT);
        String key = "lost-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        acquireAndReleaseOnceConnected(lock);

        dropping.set(true);
        try {
            BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                    () -> await(lock.acquireForever()), key);
        } finally {
            dropping.set(false);
        }
        assertThat(committed).as("the acquisition ran and committed; the proxy dropped its reply").isTrue();

        long healed = System.nanoTime();
        assertThat(StoreRecovery.await(() -> await(lock.acquireOnce()), acquired -> acquired, RECOVERY))
                .as("the same instance acquires the key again within %s of the network healing", RECOVERY).isTrue();
        System.out.printf("PostgreSQL lost reply: the key was usable again %d ms after the network healed%n",
                Duration.ofNanos(System.nanoTime() - healed).toMillis());
        ReactiveDistributedLock elsewhere = other.obtain(key);
        assertThat(await(elsewhere.acquireOnce())).as("another instance is refused while the first holds").isFalse();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(elsewhere.acquireOnce())).as("the lost grant (held forever) was taken back").isTrue();
        assertThat(await(elsewhere.release())).isTrue();
        assertThat(await(store.ping().replaceWith(true))).as("the store answers").isTrue();
    }

    /**
     * A grant whose reply is lost, then the replies of the first rounds that end its server process (the statements
     * run, nothing comes back): each round that got no answer holds a connection of the pool, so unless a later round
     * ends it too, the pool runs dry and the key, then every key, waits for ever. Once the replies come again, the key
     * works again within a few seconds.
     */
    @Test
    void lostRepliesOfTheTerminationsTooLeaveNoConnectionHeld() throws Exception {
        AtomicBoolean dropping = new AtomicBoolean();
        AtomicInteger terminationsLeftToDrop = new AtomicInteger(TERMINATIONS_DROPPED);
        Set<Integer> executingGrant = ConcurrentHashMap.newKeySet();
        Set<Integer> executingTermination = ConcurrentHashMap.newKeySet();
        FaultProxy proxy = postgres.proxy().rule(exchange -> {
            String request = exchange.request();
            if (!dropping.get() || request == null) {
                return Fault.pass();
            }
            if (request.contains("pg_terminate_backend")) {
                if (exchange.reply().equals("BindComplete") && terminationsLeftToDrop.getAndDecrement() > 0) {
                    executingTermination.add(exchange.connection());
                }
                return executingTermination.contains(exchange.connection()) ? Fault.drop() : Fault.pass();
            }
            if (request.contains("ON CONFLICT (lock_key) DO UPDATE")) {
                if (exchange.reply().equals("BindComplete")) {
                    executingGrant.add(exchange.connection());
                }
                return executingGrant.contains(exchange.connection()) ? Fault.drop() : Fault.pass();
            }
            return Fault.pass();
        });
        PostgresLockStore store = postgres.store(proxy.port(), PostgresFaults.table(), true, OPERATION_TIMEOUT);
        DefaultLockRegistry registry = postgres.registry(store, OPERATION_TIMEOUT);
        String key = "lost-termination-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        acquireAndReleaseOnceConnected(lock);

        dropping.set(true);
        try {
            BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                    () -> await(lock.acquireOnce()), key);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (terminationsLeftToDrop.get() > 0 && System.nanoTime() < deadline) {
                Pause.sleep(20);
            }
            assertThat(terminationsLeftToDrop.get()).as("the proxy dropped the replies of %d terminations",
                    TERMINATIONS_DROPPED).isNotPositive();
        } finally {
            dropping.set(false);
        }

        long healed = System.nanoTime();
        assertThat(StoreRecovery.await(() -> await(lock.acquireOnce()), acquired -> acquired, RECOVERY))
                .as("the key works again within %s of the replies coming again", RECOVERY).isTrue();
        assertThat(await(lock.release())).isTrue();
        System.out.printf("PostgreSQL lost terminations: the key was usable again %d ms after the replies came "
                + "again%n", Duration.ofNanos(System.nanoTime() - healed).toMillis());
    }

    /**
     * Every lock statement's reply is lost for a while, on more keys than the store may hold connections for: an
     * abandoned statement keeps its place among them until its session ends, so the pool always keeps a connection
     * for the rounds that end those sessions, and every key works again once the replies come again. (Were abandoned
     * statements to give up their places, the next ones would take the pool's last connections, and be abandoned in
     * turn, until no round could end any of them.)
     */
    @Test
    void statementsAbandonedOnManyKeysLeaveAConnectionToEndThem() throws Exception {
        AtomicBoolean dropping = new AtomicBoolean();
        FaultProxy proxy = postgres.proxy().rule(exchange -> dropping.get() && exchange.request() != null
                && exchange.request().contains("lock_key") ? Fault.drop() : Fault.pass());
        // four connections: one listens, two for the lock statements, one left for the rounds
        PostgresLockStore store = postgres.store(postgres.pool(proxy.port()), PostgresFaults.table(), true,
                OPERATION_TIMEOUT, 2);
        DefaultLockRegistry registry = postgres.registry(store, OPERATION_TIMEOUT);
        String prefix = "abandoned-" + UUID.randomUUID() + "-";
        ReactiveDistributedLock warmUp = registry.obtain(prefix + "warm-up");
        acquireAndReleaseOnceConnected(warmUp);

        dropping.set(true);
        try {
            List<CompletableFuture<Boolean>> acquisitions = new ArrayList<>();
            for (int k = 0; k < ABANDONED_KEYS; k++) {
                acquisitions.add(registry.obtain(prefix + k).acquireOnce().subscribeAsCompletionStage());
            }
            for (CompletableFuture<Boolean> acquisition : acquisitions) {
                assertThat(acquisition).as("an acquisition whose reply is lost fails")
                        .failsWithin(OPERATION_TIMEOUT.plus(MARGIN).multipliedBy(ABANDONED_KEYS));
            }
        } finally {
            dropping.set(false);
        }

        long healed = System.nanoTime();
        for (int k = 0; k < ABANDONED_KEYS; k++) {
            ReactiveDistributedLock lock = registry.obtain(prefix + k);
            assertThat(StoreRecovery.await(() -> await(lock.acquireOnce()), acquired -> acquired, RECOVERY))
                    .as("key %d works again within %s of the replies coming again", k, RECOVERY).isTrue();
            assertThat(await(lock.release())).isTrue();
        }
        System.out.printf("PostgreSQL statements abandoned on %d keys: every key was usable again %d ms after the "
                + "replies came again%n", ABANDONED_KEYS, Duration.ofNanos(System.nanoTime() - healed).toMillis());
    }

    /**
     * The store's first statement, the lock table's check ({@code create-schema} on), loses its reply: operations and
     * the readiness probe fail within the operation timeout meanwhile, and once the network heals the check is made
     * again, so the locks and readiness come back without a restart.
     */
    @Test
    void aLostTableCheckIsMadeAgainOnceTheNetworkHeals() throws Exception {
        AtomicBoolean dropping = new AtomicBoolean(true);
        FaultProxy proxy = postgres.proxy().rule(exchange -> dropping.get() && exchange.request() != null
                && exchange.request().contains("to_regclass") ? Fault.drop() : Fault.pass());
        PostgresLockStore store = postgres.store(proxy.port(), PostgresFaults.table(), true, OPERATION_TIMEOUT);
        DefaultLockRegistry registry = postgres.registry(store, OPERATION_TIMEOUT);
        String key = "schema-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        try {
            lock.acquireOnce().subscribe().with(acquired -> {
            }, failure -> {
            });
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (proxy.counts().drops() == 0 && System.nanoTime() < deadline) {
                Pause.sleep(20);
            }
            assertThat(proxy.counts().drops()).as("the proxy dropped the table check's reply").isPositive();
            BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                    () -> await(lock.acquireOnce()), key);
            BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), RuntimeException.class,
                    () -> await(store.ping().ifNoItem().after(OPERATION_TIMEOUT.plus(MARGIN)).fail()));
        } finally {
            dropping.set(false);
        }

        assertThat(StoreRecovery.await(() -> await(lock.acquireOnce()), acquired -> acquired, RECOVERY))
                .as("the locks work within %s of the network healing", RECOVERY).isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(store.ping().replaceWith(true))).as("readiness is up again").isTrue();
    }

    /**
     * The table check's reply is lost and the network never heals: operations keep failing within the timeout, and
     * the store and its pool still close in bounded time.
     */
    @Test
    void aStoreWhoseTableCheckIsLostStillCloses() throws Exception {
        FaultProxy proxy = postgres.proxy().rule(exchange -> exchange.request() != null
                && exchange.request().contains("to_regclass") ? Fault.drop() : Fault.pass());
        Pool pool = postgres.pool(proxy.port());
        PostgresLockStore store = postgres.store(pool, PostgresFaults.table(), true, OPERATION_TIMEOUT);
        DefaultLockRegistry registry = postgres.registry(store, OPERATION_TIMEOUT);
        String key = "closing-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        for (int i = 0; i < 2; i++) {
            BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                    () -> await(lock.acquireOnce()), key);
        }
        assertThat(proxy.counts().drops()).as("the proxy dropped the table check's replies").isPositive();

        registry.close();
        store.close();
        long closing = System.nanoTime();
        pool.close().await().atMost(Duration.ofSeconds(10));
        assertThat(Duration.ofNanos(System.nanoTime() - closing)).as("the pool closed").isLessThan(MARGIN);
    }

    /** Acquires and releases the lock once the store has connected, before any fault. */
    private static void acquireAndReleaseOnceConnected(ReactiveDistributedLock lock) throws Exception {
        assertThat(StoreRecovery.await(() -> await(lock.acquireOnce()), acquired -> acquired, RECOVERY))
                .as("acquired before the fault, once connected").isTrue();
        assertThat(await(lock.release())).isTrue();
    }
}
