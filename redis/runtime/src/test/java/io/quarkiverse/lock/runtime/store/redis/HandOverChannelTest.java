package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.tck.HeardReleases;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * A hand-over is announced on the channel of the waiter's own instance, so it costs one message however many instances
 * listen, while a plain release reaches every instance. A waiter that names no channel of its own (its instance hears
 * no release messages, or runs a version from before these channels) is announced on the release channel, as before.
 * <p>
 * Redis delivers the messages of one subscription in the order it published them, so once an instance has heard a
 * plain release published after the hand-over, it has heard everything published to it before.
 */
class HandOverChannelTest {

    private static final long LEASE_MILLIS = 30_000;

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    @Test
    void aHandOverIsAnnouncedOnlyToTheInstanceOfTheWaiterItGoesTo() throws Exception {
        RedisLockStore releasing = closedAfterTest(redis.store());
        RedisLockStore waiting = closedAfterTest(redis.store());
        HeardReleases releasingHeard = listen(releasing);
        HeardReleases waitingHeard = listen(waiting);
        String key = "hand-over-channel-" + UUID.randomUUID();

        long token = handOver(releasing, waiting, key);

        String marker = plainRelease(releasing);
        releasingHeard.awaitHeard("released[" + marker + "]");
        waitingHeard.awaitHeard("released[" + marker + "]");
        assertThat(waitingHeard.events()).as("what the waiter's instance heard")
                .containsExactly("missed", "handedOver[" + key + "|waiter|" + token + "]", "released[" + marker + "]");
        assertThat(releasingHeard.events()).as("what the releasing instance heard: not the hand-over")
                .containsExactly("missed", "released[" + marker + "]");
    }

    @Test
    void aHandOverToAWaiterWithoutAChannelOfItsOwnIsAnnouncedOnTheReleaseChannel() throws Exception {
        RedisLockStore releasing = closedAfterTest(redis.store());
        Redis client = Redis.createClient(redis.vertx(), new RedisOptions().setConnectionString(redis.server().uri()));
        RedisLockStore silent = closedAfterTest(
                new RedisLockStore(redis.vertx(), client, "lock:", Duration.ofHours(1).toMillis(), false));
        HeardReleases releasingHeard = listen(releasing);
        String key = "hand-over-without-channel-" + UUID.randomUUID();

        long token = handOver(releasing, silent, key);

        releasingHeard.awaitHeard("handedOver[" + key + "|waiter|" + token + "]");
        assertThat(releasingHeard.events()).containsExactly("missed", "handedOver[" + key + "|waiter|" + token + "]");
    }

    @Test
    void aWaiterLeavingAFreeLockPromisedToItWakesTheNextInLine() throws Exception {
        RedisLockStore leaving = closedAfterTest(redis.store());
        RedisLockStore next = closedAfterTest(redis.store());
        HeardReleases nextHeard = listen(next);
        String key = "promised-" + UUID.randomUUID();
        assertThat(await(leaving.tryAcquire(key, "holder", LEASE_MILLIS, false)).acquired()).isTrue();
        assertThat(await(leaving.tryAcquire(key, "first", LEASE_MILLIS, true)).acquired()).isFalse();
        assertThat(await(next.tryAcquire(key, "second", LEASE_MILLIS, true)).acquired()).isFalse();
        // the holder's lease lapses: the free lock is promised to the first in line
        assertThat(redis.server().send("DEL lock:{" + key + "}")).isEqualTo(":1");

        assertThat(await(leaving.takeBack(key, "first"))).as("the first had not been handed the lock").isFalse();

        nextHeard.awaitHeard("released[" + key + "]");
        assertThat(await(next.tryAcquire(key, "second", LEASE_MILLIS, true)).acquired()).as("the next in line")
                .isTrue();
    }

    @Test
    void aReleaseByARedisUserNotAllowedToPublishStillReleasesAndHandsOver() throws Exception {
        assertThat(redis.server().send("ACL SETUSER silent on >silent-pw resetchannels ~* +@all")).isEqualTo("+OK");
        String uri = "redis://silent:silent-pw@127.0.0.1:" + redis.server().port();
        RedisLockStore releasing = closedAfterTest(redis.store(uri));
        RedisLockStore waiting = closedAfterTest(redis.store());
        String key = "not-allowed-to-publish-" + UUID.randomUUID();

        long token = handOver(releasing, waiting, key);

        assertThat(token).as("the hand-over's fencing token").isPositive();
        String plain = "plain-release-" + UUID.randomUUID();
        assertThat(await(releasing.tryAcquire(plain, "holder", LEASE_MILLIS, false)).acquired()).isTrue();
        assertThat(await(releasing.release(plain, "holder"))).as("a plain release, unannounced").isTrue();
    }

    /** @return the fencing token of the hold {@code releasing}'s release handed to {@code waiting}'s waiter */
    private static long handOver(RedisLockStore releasing, RedisLockStore waiting, String key) {
        assertThat(await(releasing.tryAcquire(key, "holder", LEASE_MILLIS, false)).acquired()).isTrue();
        AcquireResult refused = await(waiting.tryAcquire(key, "waiter", LEASE_MILLIS, true));
        assertThat(refused.acquired()).as("the waiter is put in line").isFalse();
        assertThat(await(releasing.release(key, "holder"))).isTrue();
        AcquireResult claimed = await(waiting.tryAcquire(key, "waiter", LEASE_MILLIS, true));
        assertThat(claimed.acquired()).as("the release handed the lock to the waiter").isTrue();
        return claimed.token();
    }

    /** @return the key of a lock acquired and released with nobody in line: a plain release, for every instance */
    private static String plainRelease(RedisLockStore store) {
        String key = "plain-release-" + UUID.randomUUID();
        assertThat(await(store.tryAcquire(key, "marker", LEASE_MILLIS, false)).acquired()).isTrue();
        assertThat(await(store.release(key, "marker"))).isTrue();
        return key;
    }

    private RedisLockStore closedAfterTest(RedisLockStore store) {
        redis.closeAfterEach(store::close);
        return store;
    }

    private HeardReleases listen(RedisLockStore store) throws InterruptedException {
        HeardReleases heard = new HeardReleases();
        redis.closeAfterEach(store.watchReleases(heard));
        heard.awaitHeard("missed");
        return heard;
    }
}
