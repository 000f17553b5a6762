package io.quarkiverse.lock.runtime.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.quarkiverse.lock.runtime.leadership.LeadershipSettings;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The leadership groups the application declared, with their checked settings.
 *
 * @param settings each declared group's settings, by name
 * @param enabled the groups this application takes part in
 * @param joinAtStartup the enabled groups it joins at startup
 */
public record LeadershipGroups(Map<String, LeadershipSettings> settings, Set<String> enabled, Set<String> joinAtStartup) {

    /**
     * Reads and checks the runtime configuration of the declared groups.
     *
     * @param declared the groups declared at build time
     * @param disabled those of them declared with {@code enabled=false}
     * @param config the runtime configuration
     * @return the groups
     * @throws ConfigurationException naming the property whose value is invalid, or a runtime property of a group
     *         that is not declared
     */
    public static LeadershipGroups from(Set<String> declared, Set<String> disabled, LockRuntimeConfig config) {
        for (String configured : new TreeSet<>(config.leadership().keySet())) {
            if (!declared.contains(configured)) {
                throw new ConfigurationException("The properties " + LeadershipSettings.property(configured, "*")
                        + " configure leadership group '" + configured + "', which is not declared: declare it at "
                        + "build time with " + LeadershipSettings.property(configured, "enabled") + "=true",
                        Set.of(LeadershipSettings.property(configured, "enabled")));
            }
        }
        Map<String, LeadershipSettings> settings = new LinkedHashMap<>();
        Set<String> enabled = new TreeSet<>();
        Set<String> joining = new TreeSet<>();
        for (String group : new TreeSet<>(declared)) {
            LeadershipConfig groupConfig = config.leadership().get(group);
            try {
                settings.put(group, new LeadershipSettings(groupConfig.lease(), groupConfig.renewInterval(),
                        groupConfig.safetyMargin()).checkedFor(group));
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException(e.getMessage(), e);
            }
            if (!disabled.contains(group)) {
                enabled.add(group);
                if (groupConfig.joinAtStartup()) {
                    joining.add(group);
                }
            }
        }
        return new LeadershipGroups(Map.copyOf(settings), Set.copyOf(enabled), Set.copyOf(joining));
    }
}
