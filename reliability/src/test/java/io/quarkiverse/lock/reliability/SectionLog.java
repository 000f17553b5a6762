package io.quarkiverse.lock.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The checker of the shared section log: every key's entries must alternate start, end, start, end, each end
 * matching the start before it (no section began while another held the key), and the fencing tokens of a key's
 * sections must strictly increase in log order.
 */
final class SectionLog {

    private SectionLog() {
    }

    /**
     * @param entries the log, in order: {@code S|key|token|owner} and {@code E|key|token|owner}
     * @return what is wrong, one line per violation; empty if the log proves mutual exclusion and fencing order
     */
    static List<String> violations(List<String> entries) {
        List<String> violations = new ArrayList<>();
        Map<String, String[]> open = new HashMap<>();
        Map<String, Long> lastToken = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String[] entry = entries.get(i).split("\\|");
            String key = entry[1];
            long token = Long.parseLong(entry[2]);
            if (entry[0].equals("S")) {
                String[] running = open.put(key, entry);
                if (running != null) {
                    violations.add("entry " + i + ": a section of " + key + " (token " + token + ", " + entry[3]
                            + ") started while the one of token " + running[2] + " (" + running[3] + ") ran");
                }
                Long last = lastToken.put(key, token);
                if (last != null && token <= last) {
                    violations.add("entry " + i + ": token " + token + " of " + key + " is not above " + last);
                }
            } else {
                String[] running = open.remove(key);
                if (running == null || !running[2].equals(entry[2]) || !running[3].equals(entry[3])) {
                    violations.add("entry " + i + ": the end of " + key + " token " + token + " (" + entry[3]
                            + ") matches no running section");
                }
            }
        }
        open.forEach((key, running) -> violations.add("the section of " + key + " token " + running[2]
                + " never ended"));
        return violations;
    }

    /**
     * @param entries the log
     * @return how many sections ended
     */
    static long sections(List<String> entries) {
        return entries.stream().filter(entry -> entry.startsWith("E|")).count();
    }
}
