package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.SHORT_LEASE;
import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.migration.ChangeSet;
import io.quarkiverse.lock.migration.MigrationFailedException;
import io.quarkiverse.lock.migration.MigrationReport;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.smallrye.mutiny.Uni;

/**
 * The migrator ({@code io.quarkiverse.lock.migration}) on the store: instances migrating at once apply each change
 * set once and in order, a failed change set is retried at the next start, and applied change sets stay applied.
 */
public interface MigrationContract extends StoreFixture {

    @Test
    default void threeInstancesMigratingAtOnceApplyEachChangeSetOnceAndInOrder() {
        String name = newKey("migration");
        List<String> applied = Collections.synchronizedList(new ArrayList<>());
        List<ChangeSet> changeSets = Stream.of("001-create", "002-backfill", "003-index")
                .map(id -> ChangeSet.of(id, () -> Uni.createFrom().voidItem().onItem().delayIt()
                        .by(Duration.ofMillis(50)).invoke(() -> applied.add(id))))
                .toList();
        List<StandaloneLockRegistry> instances = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                instances.add(startInstance());
            }
            List<Uni<MigrationReport>> runs = instances.stream()
                    .map(instance -> instance.migrator().migrate(name, Duration.ofSeconds(30), changeSets))
                    .toList();
            List<MigrationReport> reports = await(Uni.join().all(runs).andFailFast());

            assertThat(applied).containsExactly("001-create", "002-backfill", "003-index");
            assertThat(reports).filteredOn(report -> !report.applied().isEmpty()).singleElement()
                    .satisfies(first -> assertThat(first.applied())
                            .containsExactly("001-create", "002-backfill", "003-index"));
            assertThat(reports).filteredOn(report -> report.applied().isEmpty()).hasSize(2)
                    .allSatisfy(later -> assertThat(later.alreadyApplied())
                            .containsExactly("001-create", "002-backfill", "003-index"));
        } finally {
            instances.forEach(StandaloneLockRegistry::close);
        }
    }

    @Test
    default void aFailedChangeSetStopsTheRunAndIsRetriedOnTheNextStart() {
        String name = newKey("migration-failure");
        List<String> applied = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger backfillAttempts = new AtomicInteger();
        List<ChangeSet> changeSets = List.of(
                ChangeSet.of("001-create", () -> Uni.createFrom().voidItem().invoke(() -> applied.add("001-create"))),
                ChangeSet.of("002-backfill", () -> {
                    if (backfillAttempts.incrementAndGet() == 1) {
                        throw new IllegalStateException("disk full");
                    }
                    return Uni.createFrom().voidItem().invoke(() -> applied.add("002-backfill"));
                }),
                ChangeSet.of("003-index", () -> Uni.createFrom().voidItem().invoke(() -> applied.add("003-index"))));
        StandaloneLockRegistry firstStart = startInstance();
        StandaloneLockRegistry nextStart = startInstance();
        try {
            assertThatThrownBy(() -> await(firstStart.migrator().migrate(name, changeSets)))
                    .isInstanceOf(MigrationFailedException.class)
                    .hasMessageContaining("'002-backfill'").hasMessageContaining("disk full")
                    .satisfies(failure -> assertThat(((MigrationFailedException) failure).getChangeSetId())
                            .isEqualTo("002-backfill"));
            assertThat(applied).containsExactly("001-create");

            MigrationReport retry = await(nextStart.migrator().migrate(name, Duration.ZERO, changeSets));
            assertThat(retry.alreadyApplied()).containsExactly("001-create");
            assertThat(retry.applied()).containsExactly("002-backfill", "003-index");
            assertThat(applied).containsExactly("001-create", "002-backfill", "003-index");
        } finally {
            firstStart.close();
            nextStart.close();
        }
    }

    @Test
    default void appliedChangeSetsStayAppliedForGoodSoALaterStartAppliesOnlyTheNewOnes() {
        String name = newKey("migration-later");
        List<String> applied = Collections.synchronizedList(new ArrayList<>());
        List<ChangeSet> first = Stream.of("001-create", "002-backfill")
                .map(id -> ChangeSet.of(id, () -> Uni.createFrom().voidItem().invoke(() -> applied.add(id))))
                .toList();
        List<ChangeSet> later = Stream.concat(first.stream(), Stream.of(ChangeSet.of("003-index",
                () -> Uni.createFrom().voidItem().invoke(() -> applied.add("003-index"))))).toList();
        StandaloneLockRegistry firstStart = startInstance();
        try {
            assertThat(await(firstStart.migrator().migrate(name, first)).applied())
                    .containsExactly("001-create", "002-backfill");
        } finally {
            firstStart.close();
        }

        letLeasesRunOut(SHORT_LEASE);

        StandaloneLockRegistry laterStart = startInstance();
        try {
            MigrationReport report = await(laterStart.migrator().migrate(name, Duration.ZERO, later));
            assertThat(report.alreadyApplied()).containsExactly("001-create", "002-backfill");
            assertThat(report.applied()).containsExactly("003-index");
            MigrationReport again = await(laterStart.migrator().migrate(name, Duration.ZERO, later));
            assertThat(again.applied()).isEmpty();
            assertThat(again.alreadyApplied()).containsExactly("001-create", "002-backfill", "003-index");
        } finally {
            laterStart.close();
        }
        assertThat(applied).containsExactly("001-create", "002-backfill", "003-index");
    }

    @Test
    default void anInstanceThatDoesNotWaitWhileAnotherMigratesFailsAndFindsTheWorkDoneAfterwards() throws Exception {
        String name = newKey("migration-busy");
        CompletableFuture<Void> finish = new CompletableFuture<>();
        CountDownLatch started = new CountDownLatch(1);
        List<ChangeSet> changeSets = List.of(ChangeSet.of("001-slow", () -> Uni.createFrom().completionStage(finish)
                .onSubscription().invoke(started::countDown)));
        StandaloneLockRegistry running = startInstance();
        StandaloneLockRegistry busy = startInstance();
        try {
            CompletableFuture<MigrationReport> run = running.migrator().migrate(name, changeSets)
                    .subscribeAsCompletionStage();
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> await(busy.migrator().migrate(name, Duration.ZERO, changeSets)))
                    .isInstanceOf(CannotAcquireLockException.class);

            finish.complete(null);
            assertThat(run.get(10, TimeUnit.SECONDS).applied()).containsExactly("001-slow");
            MigrationReport after = await(busy.migrator().migrate(name, Duration.ofSeconds(10),
                    changeSets));
            assertThat(after.applied()).isEmpty();
            assertThat(after.alreadyApplied()).containsExactly("001-slow");
        } finally {
            running.close();
            busy.close();
        }
    }
}
