package io.quarkiverse.lock.runtime.observe;

import java.util.List;

import io.quarkiverse.lock.leadership.LeadershipEnded;

/**
 * The observers of an application as one: none, one, or several told in turn.
 */
public final class LockObservers {

    private LockObservers() {
    }

    /**
     * @param observers the observers
     * @return {@link LockObserver#NONE} for none, the observer itself for one, else one that tells each in turn
     */
    public static LockObserver of(List<LockObserver> observers) {
        if (observers.isEmpty()) {
            return LockObserver.NONE;
        }
        if (observers.size() == 1) {
            return observers.get(0);
        }
        List<LockObserver> all = List.copyOf(observers);
        return new LockObserver() {
            @Override
            public void acquired(String name, String key, String owner, long token, long waitNanos) {
                all.forEach(observer -> observer.acquired(name, key, owner, token, waitNanos));
            }

            @Override
            public void notAcquired(String name, String key, long waitNanos) {
                all.forEach(observer -> observer.notAcquired(name, key, waitNanos));
            }

            @Override
            public void skipped(String name, String key, SkipReason reason) {
                all.forEach(observer -> observer.skipped(name, key, reason));
            }

            @Override
            public void released(String name, String key, String owner, long holdNanos) {
                all.forEach(observer -> observer.released(name, key, owner, holdNanos));
            }

            @Override
            public void leaseExpired(String name, String key, String owner, long holdNanos) {
                all.forEach(observer -> observer.leaseExpired(name, key, owner, holdNanos));
            }

            @Override
            public void renewed(String name, String key) {
                all.forEach(observer -> observer.renewed(name, key));
            }

            @Override
            public void storeFailed(String name, String key, String operation) {
                all.forEach(observer -> observer.storeFailed(name, key, operation));
            }

            @Override
            public void storeOutageStarted() {
                all.forEach(LockObserver::storeOutageStarted);
            }

            @Override
            public void storeOutageEnded(long outageNanos) {
                all.forEach(observer -> observer.storeOutageEnded(outageNanos));
            }

            @Override
            public void elected(String group, long term) {
                all.forEach(observer -> observer.elected(group, term));
            }

            @Override
            public void leadershipEnded(String group, long term, LeadershipEnded.Cause cause) {
                all.forEach(observer -> observer.leadershipEnded(group, term, cause));
            }
        };
    }
}
