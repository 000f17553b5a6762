package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The checker finds what it must find, so that an empty list of violations means something.
 */
class SectionLogTest {

    @Test
    void aCleanLogHasNoViolations() {
        assertThat(SectionLog.violations(List.of("S|a|1|x", "E|a|1|x", "S|b|2|y", "S|a|3|z", "E|b|2|y",
                "E|a|3|z"))).isEmpty();
        assertThat(SectionLog.sections(List.of("S|a|1|x", "E|a|1|x"))).isEqualTo(1);
    }

    @Test
    void overlappingSectionsOfOneKeyAreFound() {
        assertThat(SectionLog.violations(List.of("S|a|1|x", "S|a|2|y", "E|a|1|x", "E|a|2|y")))
                .anyMatch(violation -> violation.contains("started while"));
    }

    @Test
    void tokensThatDoNotIncreaseAreFound() {
        assertThat(SectionLog.violations(List.of("S|a|5|x", "E|a|5|x", "S|a|5|y", "E|a|5|y")))
                .anyMatch(violation -> violation.contains("is not above"));
    }

    @Test
    void sectionsThatNeverEndAreFound() {
        assertThat(SectionLog.violations(List.of("S|a|1|x"))).anyMatch(violation -> violation.contains("never"));
    }
}
