package io.quarkiverse.lock.deployment.leadership;

import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.GROUP;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.leadership.LeaderElected;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipChange;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.leadership.NotLeaderException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * Observers cannot hold a term up nor stop the deliveries: while a synchronous observer of the election blocks, the
 * term still ends at once when the leader yields (belief, guarded work, the lock free to another instance); an
 * observer that throws an {@link Error} is logged, and the other observers, and every later change, are still told.
 */
class ObserverFaultsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup(Observers.class);

    @Inject
    Leadership leadership;

    @Inject
    Observers observers;

    @Inject
    LockRegistry locks;

    @Test
    void aBlockedObserverDelaysNoEndOfTermAndAnErrorStopsNoDelivery() throws InterruptedException {
        LeadershipGroup group = leadership.group(GROUP);
        assertThat(observers.blocking.await(5, TimeUnit.SECONDS)).as("the election's observer is blocked").isTrue();
        assertThat(group.isLeader()).isTrue();
        long term = group.term().getAsLong();
        AtomicBoolean cancelled = new AtomicBoolean();
        UniAssertSubscriber<Object> work = group.whileLeading(Uni.createFrom().nothing()
                .onCancellation().invoke(() -> cancelled.set(true)))
                .subscribe().withSubscriber(UniAssertSubscriber.create());

        assertThat(group.yieldLeadership().await().atMost(Duration.ofSeconds(5))).isTrue();

        assertThat(group.isLeader()).isFalse();
        assertThat(cancelled).as("the guarded work cancelled while the observer blocks").isTrue();
        assertThat(work.awaitFailure().getFailure()).isInstanceOf(NotLeaderException.class);
        ReactiveDistributedLock other = locks.obtain("leadership:" + GROUP);
        assertThat(other.acquireOnce().await().atMost(Duration.ofSeconds(5)))
                .as("the lock free while the observer blocks").isTrue();
        assertThat(observers.recorded).as("nothing told while the observer blocks").isEmpty();

        observers.unblock.countDown();
        eventually("the election and the yield told", () -> observers.recorded.size() == 2);
        assertThat(observers.recorded.get(0)).isInstanceOf(LeaderElected.class);
        assertThat(observers.recorded.get(1)).isEqualTo(new LeadershipEnded(GROUP, term,
                observers.recorded.get(1).at(), LeadershipEnded.Cause.YIELDED));
        assertThat(observers.errorsThrown).as("the failing observer was told of both").isEqualTo(2);

        other.release().await().atMost(Duration.ofSeconds(5));
        eventually("the next election told", () -> observers.recorded.size() == 3);
        assertThat(observers.recorded.get(2).term()).isGreaterThan(term);
    }

    @Singleton
    static class Observers {

        final CountDownLatch blocking = new CountDownLatch(1);
        final CountDownLatch unblock = new CountDownLatch(1);
        final List<LeadershipChange> recorded = new CopyOnWriteArrayList<>();
        volatile int errorsThrown;

        void blockOnFirstElection(@Observes @Priority(1) LeaderElected change) throws InterruptedException {
            if (blocking.getCount() > 0) {
                blocking.countDown();
                unblock.await(10, TimeUnit.SECONDS);
            }
        }

        void fail(@Observes @Priority(2) LeadershipChange change) {
            errorsThrown++;
            throw new Error("an observer that fails with an Error on " + change);
        }

        void record(@Observes @Priority(3) LeadershipChange change) {
            recorded.add(change);
        }
    }
}
