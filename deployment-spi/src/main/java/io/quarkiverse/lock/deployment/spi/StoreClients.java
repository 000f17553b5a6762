package io.quarkiverse.lock.deployment.spi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The client extension that brings each store this project ships, for the message that names a missing dependency:
 * a store extension comes with its client, so a configured store that is not present means its client is missing.
 * Kept as data in this artifact ({@code META-INF/quarkus-lock/store-clients.properties}), so the core's code names no
 * store; a store that is not listed is chosen and reported as any other.
 */
public final class StoreClients {

    private static final String RESOURCE = "META-INF/quarkus-lock/store-clients.properties";
    private static final Properties CLIENTS = load();

    private StoreClients() {
    }

    /**
     * @param store a store's name, as {@code quarkus.lock.provider} takes it
     * @return the dependency that brings that store, or empty if this project ships no store of that name
     */
    public static Optional<String> clientOf(String store) {
        return Optional.ofNullable(CLIENTS.getProperty(store));
    }

    /**
     * @return the dependency that brings each store this project ships, in the order of the stores' names
     */
    public static List<String> all() {
        return CLIENTS.stringPropertyNames().stream().sorted().map(CLIENTS::getProperty).toList();
    }

    private static Properties load() {
        Properties clients = new Properties();
        try (InputStream in = StoreClients.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from quarkus-lock-deployment-spi");
            }
            clients.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + RESOURCE, e);
        }
        return clients;
    }
}
