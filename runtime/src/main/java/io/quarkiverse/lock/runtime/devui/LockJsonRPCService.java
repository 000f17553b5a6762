package io.quarkiverse.lock.runtime.devui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.leadership.Leader;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.leadership.DefaultLeadership;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkus.runtime.LaunchMode;
import io.smallrye.mutiny.Uni;

/**
 * What the Dev UI card shows, over JSON-RPC: the store and its settings, the locks this application holds now, wait
 * and hold statistics per lock name (kept by {@link DevUiLockObserver}), the locks every instance holds in the store,
 * page by page ({@link LockAdmin}), and, in dev mode only, a forced release of one of them; and the leadership groups,
 * with who leads each.
 * <p>
 * The service is a bean in dev and test mode only, and the Dev UI serves it in dev mode only; a forced release is
 * refused in any other mode all the same, since it breaks the exclusion its holder relies on.
 */
@Singleton
public class LockJsonRPCService {

    @Inject
    DevUiLockObserver observer;

    @Inject
    LockStore store;

    @Inject
    LockSettings settings;

    @Inject
    LockAdmin admin;

    @Inject
    DefaultLeadership leadership;

    /**
     * @return the store in use and the settings the locks run with
     */
    public Map<String, String> getConfiguration() {
        Map<String, String> configuration = new LinkedHashMap<>();
        configuration.put("store", store.name());
        configuration.put("quarkus.lock.key-prefix", settings.keyPrefix());
        configuration.put("quarkus.lock.expire-after", settings.defaultLease().toString());
        configuration.put("quarkus.lock.wait-timeout", settings.defaultWait().toString());
        configuration.put("quarkus.lock.operation-timeout", settings.operationTimeout().toString());
        configuration.put("quarkus.lock.renew-lease", Boolean.toString(settings.renewLease()));
        configuration.put("quarkus.lock.expire-evict-idle", settings.evictIdleInterval().toString());
        return configuration;
    }

    /**
     * @return the locks this application holds now, oldest first
     */
    public List<DevUiLockObserver.HeldLock> getHeldLocks() {
        return observer.held();
    }

    /**
     * @return wait and hold statistics per lock name
     */
    public List<DevUiLockObserver.LockStatistics> getStatistics() {
        return observer.statistics();
    }

    /**
     * Tells, for each declared leadership group, whether this instance takes part and leads, since when and in which
     * term, and who leads as the store says.
     *
     * @return the groups, by name; a group whose leader the store could not tell says why in its
     *         {@code leader}
     */
    public Uni<List<LeadershipGroupRow>> getLeadership() {
        List<Uni<LeadershipGroupRow>> rows = new ArrayList<>();
        List<LeadershipGroup> groups = new ArrayList<>(leadership.groups());
        groups.sort(Comparator.comparing(LeadershipGroup::name));
        for (LeadershipGroup group : groups) {
            Optional<DefaultLeadership.LeadingTerm> leading = leadership.leadingTerm(group.name());
            rows.add(group.leader()
                    .map(leader -> leader.map(LockJsonRPCService::shown).orElse("nobody"))
                    .onFailure().recoverWithItem(failure -> "unknown: " + failure.getMessage())
                    .map(leader -> new LeadershipGroupRow(group.name(), group.isJoined(), leading.isPresent(),
                            leading.map(DefaultLeadership.LeadingTerm::term).orElse(0L),
                            leading.map(term -> term.since().toString()).orElse(null), leader)));
        }
        return rows.isEmpty() ? Uni.createFrom().item(List.of()) : Uni.join().all(rows).andFailFast();
    }

    private static String shown(Leader leader) {
        return (leader.thisInstance() ? "this instance" : "another instance") + ", term " + leader.term();
    }

    /**
     * Lists one page of the locks held in the store under the key prefix, by every instance.
     *
     * @param cursor {@code null} for the first page, else the {@code next} of the page before
     * @param limit the most locks of the page, from 1 to {@link LockAdmin#MAX_LIMIT}
     * @return the page; fails with the {@link LockAdmin#held} error if the arguments are wrong or the store failed
     */
    public Uni<StorePage> getStoreLocks(String cursor, int limit) {
        return admin.held(cursor, limit).map(this::shown);
    }

    /**
     * Frees a lock whoever holds it ({@link LockAdmin#forceRelease}), in dev mode only.
     *
     * @param key the lock key
     * @return {@code true} if the lock was held and is now free, {@code false} if it was free already; fails with the
     *         {@link LockAdmin#forceRelease} error if the key is wrong or the store failed
     * @throws IllegalStateException if the application does not run in dev mode
     */
    public Uni<Boolean> forceRelease(String key) {
        if (!forceReleaseOffered()) {
            throw new IllegalStateException("A forced release is offered in dev mode only, and the application runs "
                    + "in " + LaunchMode.current() + " mode");
        }
        return admin.forceRelease(key);
    }

    private static boolean forceReleaseOffered() {
        return LaunchMode.current() == LaunchMode.DEVELOPMENT;
    }

    private StorePage shown(LockPage page) {
        Map<String, DevUiLockObserver.HeldLock> local = new HashMap<>();
        for (DevUiLockObserver.HeldLock held : observer.held()) {
            local.put(held.owner(), held);
        }
        List<StoreLock> locks = new ArrayList<>(page.locks().size());
        for (HeldLock lock : page.locks()) {
            DevUiLockObserver.HeldLock mine = local.get(lock.owner());
            String holder = mine == null ? "another instance" : "this application (" + mine.name() + ")";
            String since = lock.acquiredAt() != null ? lock.acquiredAt().toString()
                    : mine != null ? mine.since() : "not recorded by the store";
            String leaseLeft = lock.heldUntilReleased() ? "until released"
                    : String.format(Locale.ROOT, "%.1f s", lock.leaseLeftMillis() / 1000.0);
            String waiters = lock.waiters() == HeldLock.NO_LINE ? "not kept by the store"
                    : Integer.toString(lock.waiters());
            locks.add(new StoreLock(lock.key(), holder, lock.owner(), lock.token(), since, leaseLeft, waiters));
        }
        return new StorePage(locks, page.next(), forceReleaseOffered());
    }

    /**
     * One page of the locks held in the store, as the Dev UI shows it.
     *
     * @param locks the held locks of the page
     * @param next the cursor of the next page, {@code null} on the last
     * @param forceRelease whether a forced release is offered (in dev mode only)
     */
    public record StorePage(List<StoreLock> locks, String next, boolean forceRelease) {
    }

    /**
     * A leadership group, as the Dev UI shows it.
     *
     * @param group the group's name
     * @param joined whether this instance takes part in it now
     * @param leading whether this instance believes it leads it now
     * @param term this instance's term while it leads, else 0
     * @param since when this instance's term began (ISO-8601, by this application's clock), {@code null} unless it
     *        leads
     * @param leader who leads as the store says: this instance or another, with the term, or nobody; or why the
     *        store could not tell
     */
    public record LeadershipGroupRow(String group, boolean joined, boolean leading, long term, String since,
            String leader) {
    }

    /**
     * A lock held in the store, as the Dev UI shows it.
     *
     * @param key the lock key
     * @param holder this application (with the handle's metrics name) if one of its handles holds it, else another
     *        instance
     * @param owner the owner id of the acquisition that holds it
     * @param token the fencing token of that hold
     * @param since when the hold began (ISO-8601), by the store's clock where it records it, else by this
     *        application's where it holds the lock, else a note that the store does not record it
     * @param leaseLeft how long the lease still runs, in seconds, or {@code until released}
     * @param waiters how many waiters the store keeps in the lock's line, or a note that it keeps none
     */
    public record StoreLock(String key, String holder, String owner, long token, String since, String leaseLeft,
            String waiters) {
    }
}
