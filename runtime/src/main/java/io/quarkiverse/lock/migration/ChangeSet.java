package io.quarkiverse.lock.migration;

import java.util.Objects;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * One step of a migration: an id, unique within its migration and never changed once released, and the change,
 * created anew each time it runs.
 */
public final class ChangeSet {

    private final String id;
    private final Supplier<Uni<Void>> change;

    private ChangeSet(String id, Supplier<Uni<Void>> change) {
        this.id = id;
        this.change = change;
    }

    /**
     * @param id the change set's id, such as {@code 001-create-order-index}; not blank
     * @param change creates the change to apply; called only when the change set has not been applied yet
     * @return the change set
     * @throws IllegalArgumentException if the id is {@code null} or blank, or the change is {@code null}
     */
    public static ChangeSet of(String id, Supplier<Uni<Void>> change) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("change set id must not be null or blank, but is '" + id + "'");
        }
        Objects.requireNonNull(change, () -> "change of change set '" + id + "' must not be null");
        return new ChangeSet(id, change);
    }

    /**
     * @return the change set's id
     */
    public String id() {
        return id;
    }

    /**
     * @return the change, created now; fails (rather than throws) if creating it throws or returns {@code null}
     */
    public Uni<Void> change() {
        return Uni.createFrom().deferred(() -> Objects.requireNonNull(change.get(),
                () -> "change set '" + id + "' returned null instead of a Uni"));
    }

    @Override
    public String toString() {
        return "ChangeSet[" + id + "]";
    }
}
