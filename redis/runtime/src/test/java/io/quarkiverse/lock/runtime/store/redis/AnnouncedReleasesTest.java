package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.spi.ReleaseListener;

/**
 * The release subscription tells its listener when every release is announced, which lets waiters poll only as a
 * fallback: once all its channels are subscribed, and no longer as soon as its connection is lost, until it has
 * subscribed again, or once the watch is closed.
 */
class AnnouncedReleasesTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    @Test
    void everyReleaseIsAnnouncedWhileTheSubscriptionIsUpAndNotOnceItIsLostOrClosed() throws Exception {
        RedisLockStore store = redis.store();
        redis.closeAfterEach(store::close);
        List<String> events = new CopyOnWriteArrayList<>();
        AutoCloseable watch = store.watchReleases(new ReleaseListener() {
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
        });
        awaitEvents(events, 2);
        assertThat(events).containsExactly("announced", "look again");

        assertThat(redis.server().send("CLIENT KILL TYPE pubsub")).as("subscriptions killed").isEqualTo(":1");
        awaitEvents(events, 5);
        assertThat(events).containsExactly("announced", "look again", "not announced", "announced", "look again");

        watch.close();
        assertThat(events).last().isEqualTo("not announced");
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
