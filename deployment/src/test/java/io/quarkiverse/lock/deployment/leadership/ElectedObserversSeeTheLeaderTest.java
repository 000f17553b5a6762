package io.quarkiverse.lock.deployment.leadership;

import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.GROUP;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.leadership.LeaderElected;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Whoever is told of an election finds this instance leading in that term, the natural place to start the work only
 * the leader runs: the CDI observer of {@link LeaderElected} sees {@code term()} of the new term, and a subscriber to
 * the group's changes that calls {@code whileLeading} on the election has its work run. Many elections in a row (each
 * after a yield), while busy threads compete for the CPU, as the threads of a loaded machine do.
 */
class ElectedObserversSeeTheLeaderTest {

    private static final int ELECTIONS = 40;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup(Observer.class);

    @Inject
    Leadership leadership;

    @Inject
    Observer observer;

    @Test
    void eachElectionsObserversFindThisInstanceLeadingInTheNewTerm() throws InterruptedException {
        LeadershipGroup group = leadership.group(GROUP);
        List<String> guarded = new CopyOnWriteArrayList<>();
        group.changes().select().where(change -> change instanceof LeaderElected).subscribe()
                .with(elected -> group.whileLeading(Uni.createFrom().item(elected.term())).subscribe()
                        .with(term -> guarded.add("ran in term " + term),
                                failure -> guarded.add("failed in term " + elected.term() + ": " + failure)));
        AtomicBoolean busy = new AtomicBoolean(true);
        List<Thread> hogs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread hog = new Thread(() -> {
                long spins = 0;
                while (busy.get()) {
                    spins++;
                }
                assertThat(spins).isNotNegative();
            }, "cpu-hog-" + i);
            hog.start();
            hogs.add(hog);
        }
        try {
            // the election at startup, before the subscription above
            eventually("elected at startup", () -> group.isLeader() && !observer.seen.isEmpty());
            long last = group.term().getAsLong();
            int atStartup = observer.seen.size();
            assertThat(group.yieldLeadership().await().atMost(TIMEOUT)).isTrue();
            for (int i = 0; i < ELECTIONS; i++) {
                long previous = last;
                eventually("elected after term " + previous,
                        () -> group.term().isPresent() && group.term().getAsLong() > previous);
                last = group.term().getAsLong();
                int told = i + 1;
                // the term ends only once its observers were told: a late observer would find it over, rightly
                eventually("election " + told + " told",
                        () -> observer.seen.size() >= atStartup + told && guarded.size() >= told);
                assertThat(group.yieldLeadership().await().atMost(TIMEOUT)).isTrue();
            }
        } finally {
            busy.set(false);
            for (Thread hog : hogs) {
                hog.join();
            }
        }

        assertThat(observer.seen).as("what the CDI observer of each election saw").hasSizeGreaterThanOrEqualTo(ELECTIONS)
                .allSatisfy(seen -> assertThat(seen).startsWith("leading in the elected term"));
        assertThat(guarded).as("the work each election's subscriber started").allSatisfy(
                outcome -> assertThat(outcome).startsWith("ran in term"));
    }

    /** Records, for each election, whether this instance leads in the elected term when told. */
    @Singleton
    static class Observer {

        final List<String> seen = new CopyOnWriteArrayList<>();

        @Inject
        Leadership leadership;

        void elected(@Observes LeaderElected elected) {
            var term = leadership.group(elected.group()).term();
            seen.add(term.isPresent() && term.getAsLong() == elected.term() ? "leading in the elected term"
                    : "term " + elected.term() + " elected, but term() is " + term);
        }
    }
}
