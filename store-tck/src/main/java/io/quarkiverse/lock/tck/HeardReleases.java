package io.quarkiverse.lock.tck;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.lock.spi.ReleaseListener;

/** What a watch heard: every key released or handed over, and to whom and with which token it was handed. */
final class HeardReleases implements ReleaseListener {

    final Map<String, Boolean> keys = new ConcurrentHashMap<>();
    final Map<String, String> handedTo = new ConcurrentHashMap<>();
    final Map<String, Long> handedToken = new ConcurrentHashMap<>();

    @Override
    public void released(String key) {
        keys.put(key, Boolean.TRUE);
    }

    @Override
    public void handedOver(String key, String owner, long token) {
        handedTo.put(key, owner);
        handedToken.put(key, token);
        keys.put(key, Boolean.TRUE);
    }

    @Override
    public void mayHaveMissed() {
    }
}
