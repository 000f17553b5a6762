package io.quarkiverse.lock.deployment.postgresql;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.StoreLockAdmin;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;

/**
 * Abandoned statements on as many keys as the pool has connections left besides the listener: nothing is left for the
 * rounds that end their sessions.
 */
class PostgresPoolExhaustionTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MARGIN = Duration.ofSeconds(2);
    /** Well past the operation timeout, as on a server paused for a few seconds. */
    private static final Duration LATE = Duration.ofSeconds(3);
    private static final Duration RECOVERY = Duration.ofSeconds(10);
    /** The fixture's pool has four connections; one listens for hand-overs. */
    private static final int MAX_CONNECTIONS = 3;
    /** Forced releases queued at the gate during a pause. */
    private static final int FORCED = 30_000;

    @RegisterExtension
    final PostgresFaults postgres = new PostgresFaults();

    /**
     * Every lock statement's reply comes late (the server answered it, the reply arrives after the operation timeout),
     * on as many keys as max-connections allows, with max-connections = pool size - 1 (the fixture's default
     * max-connections, 4 on 2 cores, is even above that). Every reply arrives, so every key must work again once the
     * replies come in time again.
     */
    @Test
    void lateRepliesOnAsManyKeysAsThePoolLeavesDoNotHangTheStore() throws Exception {
        AtomicBoolean delaying = new AtomicBoolean();
        FaultProxy proxy = postgres.proxy().rule(exchange -> delaying.get() && exchange.request() != null
                && exchange.request().contains("lock_key") ? Fault.delay(LATE) : Fault.pass());
        PostgresLockStore store = postgres.store(postgres.pool(proxy.port()), PostgresFaults.table(), true,
                OPERATION_TIMEOUT, MAX_CONNECTIONS);
        DefaultLockRegistry registry = postgres.registry(store, OPERATION_TIMEOUT);
        String prefix = "late-" + UUID.randomUUID() + "-";
        ReactiveDistributedLock warmUp = registry.obtain(prefix + "warm-up");
        assertThat(StoreRecovery.await(() -> await(warmUp.acquireOnce()), acquired -> acquired, RECOVERY))
                .as("acquired before the fault, once connected").isTrue();
        assertThat(await(warmUp.release())).isTrue();

        delaying.set(true);
        try {
            List<CompletableFuture<Boolean>> acquisitions = new ArrayList<>();
            for (int k = 0; k < MAX_CONNECTIONS; k++) {
                acquisitions.add(registry.obtain(prefix + k).acquireOnce().subscribeAsCompletionStage());
            }
            for (CompletableFuture<Boolean> acquisition : acquisitions) {
                assertThat(acquisition).as("an acquisition whose reply comes late fails")
                        .failsWithin(OPERATION_TIMEOUT.plus(MARGIN));
            }
        } finally {
            delaying.set(false);
        }
        Pause.sleep(LATE.toMillis());

        for (int k = 0; k < MAX_CONNECTIONS; k++) {
            ReactiveDistributedLock lock = registry.obtain(prefix + k);
            assertThat(StoreRecovery.await(() -> await(lock.acquireOnce()), acquired -> acquired, RECOVERY))
                    .as("key %d works again within %s of the late replies arriving", k, RECOVERY).isTrue();
            assertThat(await(lock.release())).isTrue();
        }
        ReactiveDistributedLock fresh = registry.obtain(prefix + "fresh");
        assertThat(StoreRecovery.await(() -> await(fresh.acquireOnce()), acquired -> acquired, RECOVERY))
                .as("a key never touched by the fault works").isTrue();
        assertThat(await(fresh.release())).isTrue();
    }

    /**
     * The server is paused for several operation timeouts with statements in flight on more keys than the store's
     * connections, on a pool of 4 with max-connections 2 (one listens, one is left for the rounds): rounds sent during
     * the pause get no answer in time and hold the last connection too. Once the server resumes, every key works again.
     */
    @Test
    void aPauseLongerThanSeveralTimeoutsLeavesEveryKeyWorking() throws Exception {
        PostgresServer server = PostgresServer.ownedBy(PostgresPoolExhaustionTest.class);
        PostgresLockStore store = postgres.store(postgres.pool(server.port()), PostgresFaults.table(), true,
                OPERATION_TIMEOUT, 2);
        DefaultLockRegistry registry = postgres.registry(store, OPERATION_TIMEOUT);
        String prefix = "paused-" + UUID.randomUUID() + "-";
        ReactiveDistributedLock warmUp = registry.obtain(prefix + "warm-up");
        assertThat(StoreRecovery.await(() -> await(warmUp.acquireOnce()), acquired -> acquired, RECOVERY))
                .as("acquired before the pause, once connected").isTrue();
        assertThat(await(warmUp.release())).isTrue();

        List<CompletableFuture<Boolean>> acquisitions = new ArrayList<>();
        server.pause();
        Pause.sleep(100);
        server.pause();
        try {
            for (int k = 0; k < 6; k++) {
                acquisitions.add(registry.obtain(prefix + k).acquireOnce().subscribeAsCompletionStage());
            }
            for (CompletableFuture<Boolean> acquisition : acquisitions) {
                assertThat(acquisition).as("an acquisition on a paused server fails")
                        .failsWithin(OPERATION_TIMEOUT.plus(MARGIN).multipliedBy(6));
            }
            Pause.sleep(4_000);
        } finally {
            server.resume();
        }

        for (int k = 0; k < 6; k++) {
            ReactiveDistributedLock lock = registry.obtain(prefix + k);
            assertThat(StoreRecovery.await(() -> await(lock.acquireOnce()), acquired -> acquired, RECOVERY))
                    .as("key %d works again within %s of the server resuming", k, RECOVERY).isTrue();
            assertThat(await(lock.release())).isTrue();
        }
    }

    /**
     * While the server is paused, abandoned statements keep the store's places at the gate, so every forced release
     * asked meanwhile (an admin endpoint called in a loop, on distinct keys) waits there, and its time to be sent runs
     * out. Once the server resumes and a place frees, every one of them must be skipped without holding a place, and
     * the store must work again.
     */
    @Test
    void manyForcedReleasesQueuedDuringAPauseLeaveTheStoreWorking() throws Exception {
        PostgresServer server = PostgresServer.ownedBy(PostgresPoolExhaustionTest.class);
        PostgresLockStore store = postgres.store(postgres.pool(server.port()), PostgresFaults.table(), true,
                OPERATION_TIMEOUT, 2);
        DefaultLockRegistry registry = postgres.registry(store, OPERATION_TIMEOUT);
        LockAdmin admin = new StoreLockAdmin(registry);
        String prefix = "forced-" + UUID.randomUUID() + "-";
        ReactiveDistributedLock warmUp = registry.obtain(prefix + "warm-up");
        assertThat(StoreRecovery.await(() -> await(warmUp.acquireOnce()), acquired -> acquired, RECOVERY))
                .as("acquired before the pause, once connected").isTrue();
        assertThat(await(warmUp.release())).isTrue();

        List<CompletableFuture<Boolean>> forced = new ArrayList<>();
        server.pause();
        Pause.sleep(100);
        server.pause();
        try {
            List<CompletableFuture<Boolean>> acquisitions = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                acquisitions.add(registry.obtain(prefix + k).acquireOnce().subscribeAsCompletionStage());
            }
            for (CompletableFuture<Boolean> acquisition : acquisitions) {
                assertThat(acquisition).as("an acquisition on a paused server fails")
                        .failsWithin(OPERATION_TIMEOUT.plus(MARGIN));
            }
            for (int k = 0; k < FORCED; k++) {
                forced.add(admin.forceRelease(prefix + "forced-" + k).subscribeAsCompletionStage());
            }
            for (CompletableFuture<Boolean> release : forced) {
                assertThat(release).as("a forced release on a paused server fails")
                        .failsWithin(OPERATION_TIMEOUT.plus(MARGIN).multipliedBy(10));
            }
        } finally {
            server.resume();
        }

        for (int k = 0; k < 2; k++) {
            ReactiveDistributedLock lock = registry.obtain(prefix + k);
            assertThat(StoreRecovery.await(() -> await(lock.acquireOnce()), acquired -> acquired, RECOVERY))
                    .as("key %d works again within %s of the server resuming", k, RECOVERY).isTrue();
            assertThat(await(lock.release())).isTrue();
        }
        for (int k = 0; k < 20; k++) {
            ReactiveDistributedLock lock = registry.obtain(prefix + "after-" + k);
            assertThat(await(lock.acquireOnce())).as("a fresh key %d works", k).isTrue();
            assertThat(await(lock.release())).isTrue();
        }
    }
}
