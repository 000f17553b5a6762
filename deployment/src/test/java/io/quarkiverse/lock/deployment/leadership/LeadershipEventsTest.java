package io.quarkiverse.lock.deployment.leadership;

import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.GROUP;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.RENEW_MILLIS;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
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
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;

/**
 * The one instance of a group is elected at startup and told so, synchronously, asynchronously and on the stream;
 * yielding ends its term (told with the cause YIELDED, the lock free at once) and it is elected again, in a higher term,
 * only after the renew interval.
 */
class LeadershipEventsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup(Observers.class);

    @Inject
    Leadership leadership;

    @Inject
    Observers observers;

    @Inject
    LockRegistry locks;

    @Test
    void electionAndYieldAreToldToEveryKindOfObserverWithTheTermAndTheCause() {
        LeadershipGroup group = leadership.group(GROUP);
        AssertSubscriber<LeadershipChange> stream = group.changes()
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        eventually("elected at startup", group::isLeader);
        long term = group.term().getAsLong();
        eventually("the election told to the synchronous observer", () -> !observers.synchronous.isEmpty());
        assertThat(observers.synchronous.get(0)).isInstanceOf(LeaderElected.class).extracting(LeadershipChange::term)
                .isEqualTo(term);
        eventually("the election told to the asynchronous observer", () -> !observers.asynchronous.isEmpty());
        assertThat(observers.asynchronous.get(0)).isEqualTo(observers.synchronous.get(0));
        assertThat(group.leader().await().atMost(Duration.ofSeconds(5))).hasValueSatisfying(leader -> {
            assertThat(leader.term()).isEqualTo(term);
            assertThat(leader.thisInstance()).isTrue();
        });

        long yielding = System.nanoTime();
        assertThat(group.yieldLeadership().await().atMost(Duration.ofSeconds(5))).isTrue();

        assertThat(group.isLeader()).isFalse();
        assertThat(group.term()).isEmpty();
        ReactiveDistributedLock probe = locks.obtain("leadership:" + GROUP);
        assertThat(probe.acquireOnce().await().atMost(Duration.ofSeconds(5)))
                .as("the lock is free once the yield completed").isTrue();
        eventually("the end told", () -> observers.synchronous.size() >= 2 && observers.asynchronous.size() >= 2);
        LeadershipEnded ended = (LeadershipEnded) observers.synchronous.get(1);
        assertThat(ended.term()).isEqualTo(term);
        assertThat(ended.cause()).isEqualTo(LeadershipEnded.Cause.YIELDED);
        assertThat(observers.asynchronous).contains(ended);
        assertThat(stream.getItems()).as("a hot stream: the changes since it was subscribed to").containsExactly(ended);

        assertThat(probe.release().await().atMost(Duration.ofSeconds(5))).isTrue();
        eventually("elected again", group::isLeader);
        assertThat(System.nanoTime() - yielding).as("no new term before the renew interval after a yield")
                .isGreaterThanOrEqualTo(Duration.ofMillis(RENEW_MILLIS).toNanos());
        assertThat(group.term().getAsLong()).isGreaterThan(term);
        eventually("the new term streamed", () -> stream.getItems().size() == 2);
        assertThat(stream.getItems().get(1)).isEqualTo(new LeaderElected(GROUP, group.term().getAsLong(),
                stream.getItems().get(1).at()));
    }

    @Singleton
    static class Observers {

        final List<LeadershipChange> synchronous = new CopyOnWriteArrayList<>();
        final List<LeadershipChange> asynchronous = new CopyOnWriteArrayList<>();

        void elected(@Observes LeaderElected change) {
            synchronous.add(change);
        }

        void ended(@Observes LeadershipEnded change) {
            synchronous.add(change);
        }

        void any(@ObservesAsync LeadershipChange change) {
            asynchronous.add(change);
        }
    }
}
