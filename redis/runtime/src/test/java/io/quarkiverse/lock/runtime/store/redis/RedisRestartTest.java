package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * What a crashed and restarted redis-server means for the locks it held, as the guide states it. Without persistence
 * it forgets them: a lock still held is granted again, to another instance (the limit a user must configure away),
 * but the fencing token still rises, since a token is at least the server's clock in microseconds, so a downstream
 * store that checks tokens refuses the first holder's late writes; the first holder is told when it releases. With
 * the append-only file written through at every command ({@code appendfsync always}), a server killed with
 * {@code SIGKILL} and started again on its data still holds every lock it granted. Each instance is a registry on its
 * own client; the server is killed, not shut down, so nothing is written on the way out.
 */
class RedisRestartTest {

    private static final Duration RECOVERY = Duration.ofSeconds(30);

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.vertxOnly();

    @TempDir
    Path data;

    @Test
    void aServerRestartedWithoutPersistenceForgetsItsLocksButTokensStillRise() throws Exception {
        RedisServer server = locks.closeAfterEach(RedisServer.start());
        ReactiveDistributedLock holder = instanceOn(server).obtain("restart-without-persistence");
        ReactiveDistributedLock other = instanceOn(server).obtain("restart-without-persistence");
        assertThat(RegistryFixture.await(holder.acquireForever())).isTrue();
        long tokenBefore = holder.fencingToken().orElseThrow();

        server.kill();
        locks.closeAfterEach(RedisServer.start(server.port()));

        assertThat(StoreRecovery.await(() -> RegistryFixture.await(other.acquireOnce()), acquired -> acquired,
                RECOVERY)).as("the restarted server forgot the lock held forever: another instance gets it").isTrue();
        assertThat(other.fencingToken().orElseThrow()).as("its token is still above the forgotten holder's")
                .isGreaterThan(tokenBefore);
        assertThatThrownBy(() -> RegistryFixture.await(holder.release()))
                .as("the first holder is told it no longer held the lock").isInstanceOf(LockExpiredException.class);
        assertThat(RegistryFixture.await(other.release())).isTrue();
    }

    @Test
    void aServerKilledAndRestartedOnItsAppendOnlyFileStillHoldsItsLocks() throws Exception {
        String[] appendOnly = { "--appendonly", "yes", "--appendfsync", "always", "--dir", data.toString() };
        RedisServer server = locks.closeAfterEach(RedisServer.startWith(appendOnly));
        ReactiveDistributedLock holder = instanceOn(server).obtain("restart-append-only");
        ReactiveDistributedLock other = instanceOn(server).obtain("restart-append-only");
        assertThat(RegistryFixture.await(holder.acquireForever())).isTrue();
        long tokenBefore = holder.fencingToken().orElseThrow();

        server.kill();
        locks.closeAfterEach(RedisServer.start(server.port(), appendOnly));

        assertThat(StoreRecovery.await(() -> RegistryFixture.await(holder.isAcquired()), held -> held, RECOVERY))
                .as("the restarted server still holds the lock for its holder").isTrue();
        assertThat(RegistryFixture.await(other.acquireOnce())).as("another instance is refused").isFalse();
        assertThat(RegistryFixture.await(holder.release())).as("the holder releases it").isTrue();
        assertThat(RegistryFixture.await(other.acquireOnce())).as("then the other instance gets it").isTrue();
        assertThat(other.fencingToken().orElseThrow()).isGreaterThan(tokenBefore);
        assertThat(RegistryFixture.await(other.release())).isTrue();
    }

    /** @return a registry on a store of its own client to {@code server}: one instance of the application */
    private DefaultLockRegistry instanceOn(RedisServer server) {
        Redis redis = Redis.createClient(locks.vertx(), new RedisOptions().setConnectionString(server.uri()));
        RedisLockStore store = new RedisLockStore(locks.vertx(), redis, "lock:", Duration.ofHours(1).toMillis(), true);
        return locks.start(store, RegistryFixture.settings(Duration.ofSeconds(30), Duration.ofSeconds(1),
                Duration.ofSeconds(5)), new LocalLockStates());
    }
}
