package io.quarkiverse.lock.runtime.leadership;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipChange;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The {@link Leadership} of one application instance over its {@link LockRegistry}: its groups, the thread that times
 * their renewals and deadlines (it runs no user code, so no group's work or observer can hold up another group's
 * term), and the threads that cancel their guarded work and deliver their changes (one group's at a time, in order).
 * {@link #close()} ends every term with {@code SHUTDOWN}, releasing the locks so that other instances are elected at
 * once, and waits a bounded time for the releases and for the observers to be told.
 */
public final class DefaultLeadership implements Leadership, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DefaultLeadership.class);
    /** How long {@link #close()} waits for the releases, and then for the observers of the last changes. */
    private static final Duration CLOSING = Duration.ofSeconds(5);

    private final Map<String, GroupMember> groups = new LinkedHashMap<>();
    private final ScheduledExecutorService timers;
    /** The cancellations of guarded work and the deliveries of changes: a thread for each that runs at once. */
    private final ExecutorService callbacks;
    private final ChangeDispatcher all;

    /**
     * @param registry the locks, on the application's store
     * @param admin the administration of the store's locks, to tell who leads
     * @param declared the groups, by name: their settings, checked
     * @param enabled the names of the groups this application takes part in (the others are declared but disabled)
     * @param sink told of every change first, on a delivery thread (the CDI events); may throw
     * @param observer told of elections and ended terms (metrics)
     */
    public DefaultLeadership(DefaultLockRegistry registry, LockAdmin admin, Map<String, LeadershipSettings> declared,
            Collection<String> enabled, Consumer<LeadershipChange> sink, LockObserver observer) {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, threads("quarkus-lock-leadership"));
        scheduler.setRemoveOnCancelPolicy(true);
        this.timers = scheduler;
        this.callbacks = Executors.newCachedThreadPool(threads("quarkus-lock-leadership-callback"));
        this.all = new ChangeDispatcher(Runnable::run, change -> {
        });
        for (Map.Entry<String, LeadershipSettings> group : declared.entrySet()) {
            String name = group.getKey();
            ChangeDispatcher changes = new ChangeDispatcher(callbacks, change -> {
                sink.accept(change);
                all.dispatch(change);
            });
            groups.put(name, new GroupMember(name, group.getValue().checkedFor(name), enabled.contains(name), registry,
                    registry.store(), admin, timers, callbacks, changes, observer));
        }
    }

    @Override
    public LeadershipGroup group(String name) {
        return member(name);
    }

    /**
     * @throws IllegalArgumentException if no group of that name is declared
     */
    GroupMember member(String name) {
        GroupMember group = groups.get(name);
        if (group == null) {
            throw new IllegalArgumentException("No leadership group '" + name + "' is declared: declare it with "
                    + LeadershipSettings.property(name, "enabled") + "=true");
        }
        return group;
    }

    /**
     * @param name a declared group's name
     * @return this instance's current term of the group and when it began, read together; empty if it does not lead
     *         the group now
     * @throws IllegalArgumentException if no group of that name is declared
     */
    public Optional<LeadingTerm> leadingTerm(String name) {
        return Optional.ofNullable(member(name).believedTerm()).map(term -> new LeadingTerm(term.token(),
                term.electedAt()));
    }

    /**
     * A term this instance leads.
     *
     * @param term the term, the fencing token of the group's lock
     * @param since when it began, by this application's wall clock
     */
    public record LeadingTerm(long term, Instant since) {
    }

    @Override
    public Collection<LeadershipGroup> groups() {
        return Collections.unmodifiableCollection(groups.values());
    }

    @Override
    public Multi<LeadershipChange> changes() {
        return all.stream();
    }

    /**
     * Joins the enabled groups that join at startup.
     *
     * @param atStartup the names of those groups
     */
    public void start(Collection<String> atStartup) {
        for (String name : atStartup) {
            GroupMember group = member(name);
            if (group.enabled()) {
                group.join();
            }
        }
    }

    /**
     * Ends every term with {@code SHUTDOWN} and stops contending; waits up to five seconds for the releases, and up to
     * five more for the last changes to be delivered, then stops the threads. A second call does nothing more.
     */
    @Override
    public void close() {
        List<Uni<Void>> releases = new ArrayList<>();
        for (GroupMember group : groups.values()) {
            releases.add(group.close());
        }
        try {
            if (!releases.isEmpty()) {
                Uni.join().all(releases).andCollectFailures().await().atMost(CLOSING);
            }
        } catch (RuntimeException e) {
            LOG.debugf("Not every leadership lock was released at shutdown (their leases free them): %s",
                    e.getMessage());
        }
        timers.shutdownNow();
        callbacks.shutdown();
        try {
            if (!callbacks.awaitTermination(CLOSING.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("Observers of leadership changes, or cancellations of guarded work, still run after shutdown");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory threads(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
