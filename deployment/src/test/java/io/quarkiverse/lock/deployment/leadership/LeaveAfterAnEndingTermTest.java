package io.quarkiverse.lock.deployment.leadership;

import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.GROUP;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.leadership.Leader;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code leave()} completes once the group's lock is released, also when the term ended just before (a yield here; an
 * expiry or a lost lease the same) and its lock waits for guarded work that takes a while to stop.
 */
class LeaveAfterAnEndingTermTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup();

    @Inject
    Leadership leadership;

    @Test
    void leaveCompletesOnlyOnceTheEndingTermsLockIsReleased() throws InterruptedException {
        LeadershipGroup group = leadership.group(GROUP);
        eventually("elected", group::isLeader);
        long term = group.term().getAsLong();
        CountDownLatch stopping = new CountDownLatch(1);
        CountDownLatch mayStop = new CountDownLatch(1);
        // guarded work whose cancellation takes a while: it winds down for up to 1.5 s
        group.whileLeading(Uni.createFrom().nothing().onCancellation().invoke(() -> {
            stopping.countDown();
            try {
                mayStop.await(1500, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })).subscribe().with(ignored -> {
        }, ignored -> {
        });
        try {
            group.yieldLeadership().subscribe().with(ignored -> {
            });
            assertThat(stopping.await(5, TimeUnit.SECONDS)).as("the guarded work told to stop").isTrue();

            group.leave().await().atMost(TIMEOUT);

            Optional<Leader> holder = group.leader().await().atMost(TIMEOUT);
            assertThat(holder).as("who holds the group's lock once leave() completed (term %d was ours)", term)
                    .isEmpty();
        } finally {
            mayStop.countDown();
        }
    }
}
