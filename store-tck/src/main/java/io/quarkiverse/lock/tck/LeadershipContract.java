package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.leadership.Leader;
import io.quarkiverse.lock.leadership.LeadershipChange;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.leadership.NotLeaderException;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * Leader election on the store: three application instances join one group; exactly one leads at any time, as each
 * instance's own {@code isLeader()} sees it; a yield or a graceful shutdown hands leadership to another instance at
 * once (well within the lease), in a higher term; a leader whose lock was freed behind its back stops at its next
 * renewal; guarded work runs only on the leader; and the store tells who leads.
 */
public interface LeadershipContract extends StoreFixture {

    /** The lease of the groups' locks. */
    Duration LEASE = Duration.ofMillis(1000);
    /** How often leaders renew. */
    Duration RENEW_INTERVAL = Duration.ofMillis(200);
    /** How long before the lease's end a leader stops believing it leads. */
    Duration SAFETY_MARGIN = Duration.ofMillis(250);

    @Test
    default void oneInstanceLeadsAndAYieldOrAShutdownHandsOverAtOnceToAHigherTerm() {
        String group = newKey("leaders");
        List<StandaloneLockRegistry> instances = instances(3);
        try {
            List<LeadershipGroup> members = joined(instances, group);
            int first = awaitOneLeaderOtherThan(members, -1);
            long firstTerm = members.get(first).term().getAsLong();

            long yielding = System.nanoTime();
            assertThat(await(members.get(first).yieldLeadership())).isTrue();
            int second = awaitOneLeaderOtherThan(members, first);
            assertThat(Duration.ofNanos(System.nanoTime() - yielding)).as("hand-over after a yield")
                    .isLessThan(LEASE);
            long secondTerm = members.get(second).term().getAsLong();
            assertThat(secondTerm).isGreaterThan(firstTerm);

            long stopping = System.nanoTime();
            instances.get(second).close();
            int third = awaitOneLeaderOtherThan(members, second);
            assertThat(Duration.ofNanos(System.nanoTime() - stopping)).as("hand-over after a shutdown")
                    .isLessThan(LEASE);
            assertThat(members.get(third).term().getAsLong()).isGreaterThan(secondTerm);
        } finally {
            instances.forEach(StandaloneLockRegistry::close);
        }
    }

    @Test
    default void aLeaderWhoseLockWasForciblyReleasedStopsAtItsNextRenewalAndAHigherTermFollows() {
        String group = newKey("deleted");
        List<StandaloneLockRegistry> instances = instances(2);
        try {
            List<LeadershipGroup> members = joined(instances, group);
            int leader = awaitOneLeaderOtherThan(members, -1);
            long term = members.get(leader).term().getAsLong();
            AssertSubscriber<LeadershipChange> changes = members.get(leader).changes()
                    .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

            // Freed as an administrator does (LockAdmin.forceRelease), which keeps the key's fencing counter.
            assertThat(await(otherStore().forceRelease("leadership:" + group))).isTrue();

            TckSupport.eventually(() -> changes.getItems().stream().anyMatch(change -> change instanceof LeadershipEnded));
            // The stream may still deliver the election, which it was subscribed to just after.
            LeadershipChange ended = changes.getItems().stream().filter(change -> change instanceof LeadershipEnded)
                    .findFirst().orElseThrow();
            assertThat(ended).isEqualTo(new LeadershipEnded(group, term, ended.at(), LeadershipEnded.Cause.LEASE_LOST));
            TckSupport.eventually(() -> members.stream().anyMatch(member -> member.term().orElse(0) > term));
        } finally {
            instances.forEach(StandaloneLockRegistry::close);
        }
    }

    @Test
    default void guardedWorkRunsOnlyOnTheLeaderAndIsCancelledWhenItsTermEnds() {
        String group = newKey("guarded");
        List<StandaloneLockRegistry> instances = instances(2);
        try {
            List<LeadershipGroup> members = joined(instances, group);
            int leader = awaitOneLeaderOtherThan(members, -1);
            LeadershipGroup follower = members.get(1 - leader);
            AtomicBoolean ran = new AtomicBoolean();
            UniAssertSubscriber<Object> refused = follower.whileLeading(Uni.createFrom().item(() -> ran.getAndSet(true)))
                    .subscribe().withSubscriber(UniAssertSubscriber.create());
            assertThat(refused.awaitFailure(TckSupport.TIMEOUT).getFailure()).isInstanceOf(NotLeaderException.class);
            assertThat(ran).as("the follower's work ran").isFalse();

            AtomicBoolean cancelled = new AtomicBoolean();
            UniAssertSubscriber<Object> running = members.get(leader).whileLeading(Uni.createFrom().nothing()
                    .onCancellation().invoke(() -> cancelled.set(true)))
                    .subscribe().withSubscriber(UniAssertSubscriber.create());
            await(members.get(leader).yieldLeadership());

            assertThat(cancelled).isTrue();
            assertThat(((NotLeaderException) running.awaitFailure(TckSupport.TIMEOUT).getFailure()).getEndedBy())
                    .contains(LeadershipEnded.Cause.YIELDED);
        } finally {
            instances.forEach(StandaloneLockRegistry::close);
        }
    }

    @Test
    default void theStoreTellsEveryInstanceTheLeadersTerm() {
        String group = newKey("who");
        List<StandaloneLockRegistry> instances = instances(3);
        try {
            List<LeadershipGroup> members = joined(instances.subList(0, 2), group);
            LeadershipGroup bystander = instances.get(2).leadership(group, LEASE, RENEW_INTERVAL, SAFETY_MARGIN)
                    .group(group);
            int leader = awaitOneLeaderOtherThan(members, -1);
            long term = members.get(leader).term().getAsLong();

            assertThat(await(members.get(leader).leader())).contains(new Leader(group, term, true));
            assertThat(await(members.get(1 - leader).leader())).contains(new Leader(group, term, false));
            assertThat(await(bystander.leader())).contains(new Leader(group, term, false));
            instances.get(0).close();
            instances.get(1).close();
            assertThat(await(bystander.leader())).as("nobody leads once the members stopped").isEmpty();
        } finally {
            instances.forEach(StandaloneLockRegistry::close);
        }
    }

    private List<StandaloneLockRegistry> instances(int count) {
        List<StandaloneLockRegistry> instances = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            instances.add(startInstance());
        }
        return instances;
    }

    private static List<LeadershipGroup> joined(List<StandaloneLockRegistry> instances, String group) {
        List<LeadershipGroup> members = new ArrayList<>();
        for (StandaloneLockRegistry instance : instances) {
            LeadershipGroup member = instance.leadership(group, LEASE, RENEW_INTERVAL, SAFETY_MARGIN).group(group);
            member.join();
            members.add(member);
        }
        return members;
    }

    /**
     * Fails if two members believe they lead at once: member i reads its term, j reads its own, i reads its term
     * again; the same term of i both times means i believed throughout, so j must not have believed meanwhile.
     *
     * @param members the members of one group, one per instance
     * @throws AssertionError naming both members and their terms if two believe they lead
     */
    public static void assertNoTwoLeaders(List<LeadershipGroup> members) {
        for (int i = 0; i < members.size(); i++) {
            for (int j = 0; j < members.size(); j++) {
                if (i == j) {
                    continue;
                }
                OptionalLong before = members.get(i).term();
                OptionalLong other = members.get(j).term();
                OptionalLong after = members.get(i).term();
                if (before.isPresent() && before.equals(after) && other.isPresent()) {
                    fail("instances " + i + " (term " + before.getAsLong() + ") and " + j + " (term "
                            + other.getAsLong() + ") both believe they lead");
                }
            }
        }
    }

    /**
     * Waits up to five seconds for one instance other than {@code not} to lead, checking all along that no two
     * instances believe they lead at once ({@link #assertNoTwoLeaders}).
     *
     * @return the index of the leader
     */
    private static int awaitOneLeaderOtherThan(List<LeadershipGroup> members, int not) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() - deadline < 0) {
            assertNoTwoLeaders(members);
            int leader = -1;
            for (int i = 0; i < members.size(); i++) {
                if (members.get(i).isLeader()) {
                    leader = i;
                }
            }
            if (leader >= 0 && leader != not) {
                return leader;
            }
            Thread.onSpinWait();
        }
        return fail("no instance but " + not + " led within 5 s");
    }
}
