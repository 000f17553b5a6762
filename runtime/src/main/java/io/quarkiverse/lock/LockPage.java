package io.quarkiverse.lock;

import java.util.List;
import java.util.Objects;

/**
 * One page of the locks held in the store under the key prefix, and where the next page starts.
 * <p>
 * A page covers a bounded part of the store: it may list fewer locks than were asked for, even none, and still have
 * a next page. The listing is complete once a page has no {@link #next()} cursor. Each page is read at its own moment,
 * so a lock acquired or released while the pages are read may be missing or already gone.
 *
 * @param locks the held locks of this page, in the store's order
 * @param next the cursor that reads the next page, opaque to the caller; {@code null} if this page is the last
 */
public record LockPage(List<HeldLock> locks, String next) {

    /**
     * @throws NullPointerException if {@code locks} is {@code null}
     */
    public LockPage {
        locks = List.copyOf(Objects.requireNonNull(locks, "locks"));
    }

    /**
     * @return {@code true} if another page follows, {@code false} if the listing is complete
     */
    public boolean hasNext() {
        return next != null;
    }
}
