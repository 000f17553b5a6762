package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.spi.ReleaseListener;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;

/**
 * The release subscription tells its listener when every release is announced, which lets waiters poll only as a
 * fallback: once all its channels are subscribed, and no longer as soon as its connection is lost (also silently:
 * it stops answering the subscription's PINGs), until it has subscribed again, or once the watch is closed.
 */
class AnnouncedReleasesTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    @Test
    void everyReleaseIsAnnouncedWhileTheSubscriptionIsUpAndNotOnceItIsLostOrClosed() throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        redis.vertx().exceptionHandler(uncaught::add);
        RedisLockStore store = redis.store();
        redis.closeAfterEach(store::close);
        List<String> events = new CopyOnWriteArrayList<>();
        AutoCloseable watch = store.watchReleases(recording(events));
        awaitEvents(events, 2);
        assertThat(events).containsExactly("announced", "look again");
        Thread.sleep(RedisReleaseWatch.SILENCE_MILLIS + RedisReleaseWatch.KEEPALIVE_MILLIS);
        assertThat(events).as("a quiet subscription that answers its PINGs stays up")
                .containsExactly("announced", "look again");
        assertThat(uncaught).as("what the subscription's handlers threw").isEmpty();

        assertThat(redis.server().send("CLIENT KILL TYPE pubsub")).as("subscriptions killed").isEqualTo(":1");
        awaitEvents(events, 5);
        assertThat(events).containsExactly("announced", "look again", "not announced", "announced", "look again");

        watch.close();
        assertThat(events).last().isEqualTo("not announced");
    }

    @Test
    void aSubscriptionWhoseConnectionFellSilentIsTakenAsLost() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        RedisLockStore store = redis.store(proxy.redisUri());
        redis.closeAfterEach(store::close);
        List<String> events = new CopyOnWriteArrayList<>();
        redis.closeAfterEach(store.watchReleases(recording(events)));
        awaitEvents(events, 2);

        proxy.swallow(true);

        awaitEvents(events, 5);
        assertThat(events).as("lost without a word, then subscribed again on a new connection")
                .containsExactly("announced", "look again", "not announced", "announced", "look again");
    }

    private static ReleaseListener recording(List<String> events) {
        return new ReleaseListener() {
            @Override
            public void released(String key) {
            }

            @Override
            public void handedOver(String key, String owner, long token) {
            }

            @Override
            public void mayHaveMissed() {
                events.add("look again");
            }

            @Override
            public void announcesEveryRelease(boolean every) {
                events.add(every ? "announced" : "not announced");
            }
        };
    }

    private static void awaitEvents(List<String> events, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (events.size() < count) {
            assertThat(System.nanoTime()).as("heard " + count + " events within 10 s; heard " + events)
                    .isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
