package io.quarkiverse.lock.deployment.leadership;

import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.GROUP;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.RENEW_MILLIS;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.leadership.NotLeaderException;
import io.quarkiverse.lock.runtime.leadership.DefaultLeadership;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * What the application's shutdown task does ({@link DefaultLeadership#close()}, run before the registry closes): the
 * term ends with SHUTDOWN, told to the observers before it returns, the guarded work cancelled, the lock released so
 * that another instance is elected at once, and this instance does not contend again.
 */
class ShutdownYieldTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup(Observer.class);

    @Inject
    DefaultLeadership leadership;

    @Inject
    Observer observer;

    @Inject
    LockRegistry locks;

    @Test
    void shuttingDownReleasesTheLockAndTellsTheObservers() throws InterruptedException {
        LeadershipGroup group = leadership.group(GROUP);
        eventually("elected", group::isLeader);
        long term = group.term().getAsLong();
        UniAssertSubscriber<Object> work = group.whileLeading(Uni.createFrom().nothing())
                .subscribe().withSubscriber(UniAssertSubscriber.create());

        leadership.close();

        assertThat(observer.ended).singleElement().satisfies(ended -> {
            assertThat(ended.term()).isEqualTo(term);
            assertThat(ended.cause()).isEqualTo(LeadershipEnded.Cause.SHUTDOWN);
        });
        assertThat(((NotLeaderException) work.awaitFailure().getFailure()).getEndedBy())
                .contains(LeadershipEnded.Cause.SHUTDOWN);
        assertThat(group.isLeader()).isFalse();
        assertThat(group.isJoined()).isFalse();
        assertThat(locks.obtain("leadership:" + GROUP).acquireOnce().await().atMost(Duration.ofSeconds(5)))
                .as("released at once, not left to the lease").isTrue();
        Thread.sleep(3 * RENEW_MILLIS);
        assertThat(group.isLeader()).as("no contention after shutdown").isFalse();
    }

    @Singleton
    static class Observer {

        final List<LeadershipEnded> ended = new CopyOnWriteArrayList<>();

        void ended(@Observes LeadershipEnded change) {
            ended.add(change);
        }
    }
}
