package io.quarkiverse.lock.runtime.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.migration.ChangeSet;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.UnreachableStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.smallrye.mutiny.Uni;

/**
 * A migration with a bad name, wait or change sets fails fast with an {@link IllegalArgumentException} saying what
 * is wrong, before anything reaches the store (here, a store that nothing may reach).
 */
class MigrationArgumentsTest {

    private static final LockSettings SETTINGS = new LockSettings(Duration.ofSeconds(10), Duration.ofSeconds(10),
            Duration.ofSeconds(1), "lock:", false, Duration.ofSeconds(5));

    private final UnreachableStore store = new UnreachableStore();
    private final StoreLockMigrator migrator = new StoreLockMigrator(new DefaultLockRegistry(store, SETTINGS,
            (waiter, failedAttempts, holderRemaining, remainingNanos) -> {
                throw new AssertionError("a refused migration waited");
            }, new LocalLockStates(), null));
    private final ChangeSet step = ChangeSet.of("001", () -> Uni.createFrom().voidItem());

    @AfterEach
    void nothingReachedTheStore() {
        assertThat(store.reached()).isEmpty();
    }

    @Test
    void aMigrationNeedsANameAndAWaitThatIsNotNegative() {
        assertThatThrownBy(() -> migrator.migrate(" ", List.of(step)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("migration name");
        assertThatThrownBy(() -> migrator.migrate(null, List.of(step)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("migration name");
        assertThatThrownBy(() -> migrator.migrate("m", Duration.ofSeconds(-1), List.of(step)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait");
        assertThatThrownBy(() -> migrator.migrate("m", null, List.of(step)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait");
    }

    @Test
    void changeSetsMustBePresentUniqueAndShortEnoughToRecord() {
        assertThatThrownBy(() -> migrator.migrate("m", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("change sets");
        assertThatThrownBy(() -> migrator.migrate("m", Arrays.asList(step, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not hold null");
        assertThatThrownBy(() -> migrator.migrate("m", List.of(step, ChangeSet.of("001", () -> null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'001' appears twice");
        assertThatThrownBy(() -> migrator.migrate("m", List.of(ChangeSet.of("x".repeat(600), () -> null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too long");
        String name = "m".repeat(LockRegistry.MAX_KEY_LENGTH - "migration::applied:001".length());
        assertThat(migrator.migrate(name, List.of(step))).as("the longest name whose record fits").isNotNull();
        assertThatThrownBy(() -> migrator.migrate(name + "m", List.of(step)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too long");
        assertThatThrownBy(() -> ChangeSet.of("", () -> null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("id");
    }
}
