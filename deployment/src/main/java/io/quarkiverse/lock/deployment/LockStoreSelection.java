package io.quarkiverse.lock.deployment;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.deployment.spi.LockStoreImplementationBuildItem;
import io.quarkiverse.lock.deployment.spi.StoreClients;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Chooses the store from {@code quarkus.lock.provider} and the stores present, knowing none of them by name.
 */
final class LockStoreSelection {

    /** The value of {@code quarkus.lock.provider} that lets the build choose. */
    static final String AUTO = "auto";

    private LockStoreSelection() {
    }

    /**
     * @param configured the configured provider: a store's name or {@code auto}
     * @param present the stores present, the in-memory one included
     * @return the chosen store
     * @throws ConfigurationException if no present store has the configured name, or if {@code auto} finds several
     *         stores of the highest priority and cannot know which one the locks belong in
     */
    static LockStoreBuildItem select(String configured, List<LockStoreImplementationBuildItem> present) {
        List<LockStoreImplementationBuildItem> stores = present.stream()
                .sorted(Comparator.comparing(LockStoreImplementationBuildItem::name))
                .collect(Collectors.toList());
        if (!AUTO.equals(configured)) {
            if (stores.stream().noneMatch(store -> store.name().equals(configured))) {
                throw new ConfigurationException(StoreClients.clientOf(configured)
                        .map(client -> "quarkus.lock.provider is '" + configured + "', but its client extension is "
                                + "missing: add the " + client + " dependency (stores present: " + names(stores, ", ")
                                + ")")
                        .orElseGet(() -> "quarkus.lock.provider is '" + configured + "', but no lock store of that "
                                + "name is present (present: " + names(stores, ", ") + "): add the store's client "
                                + "extension, with which quarkus-lock brings the store's own extension, or the store's "
                                + "extension itself"));
            }
            return new LockStoreBuildItem(configured, false);
        }
        int highest = stores.stream().mapToInt(LockStoreImplementationBuildItem::autoPriority).max()
                .orElseThrow(() -> new IllegalStateException("No lock store is present, not even the in-memory one"));
        List<LockStoreImplementationBuildItem> best = stores.stream()
                .filter(store -> store.autoPriority() == highest)
                .collect(Collectors.toList());
        if (best.size() > 1) {
            throw new ConfigurationException(best.stream().map(LockStoreImplementationBuildItem::clientExtension)
                    .collect(Collectors.joining(" and ")) + " are present, so Quarkus Lock cannot choose a store: "
                    + "set quarkus.lock.provider to " + names(best, " or "));
        }
        LockStoreImplementationBuildItem chosen = best.get(0);
        return new LockStoreBuildItem(chosen.name(), chosen.localOnly());
    }

    private static String names(List<LockStoreImplementationBuildItem> stores, String separator) {
        return stores.stream().map(LockStoreImplementationBuildItem::name).collect(Collectors.joining(separator));
    }
}
