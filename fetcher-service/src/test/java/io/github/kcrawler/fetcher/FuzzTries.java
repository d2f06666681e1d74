package io.github.kcrawler.fetcher;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Lets one system property scale every fuzz property: CI runs the small {@code tries} written on each property
 * (seconds in all), and an on-demand run sets {@code -Dkcrawler.fuzz.tries=1000000} (see docs/HOSTILE.md). A value
 * that is not a positive integer is ignored. Use with {@code @AddLifecycleHook(FuzzTries.class)} on the class.
 */
public final class FuzzTries implements AroundPropertyHook {
    public static final String PROPERTY = "kcrawler.fuzz.tries";

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        Integer tries = configured();
        if (tries != null) {
            context.attributes().setTries(tries);
        }
        return property.execute();
    }

    /** Registered on a test class, the hook must reach the class's properties. */
    @Override
    public net.jqwik.api.lifecycle.PropagationMode propagateTo() {
        return net.jqwik.api.lifecycle.PropagationMode.ALL_DESCENDANTS;
    }

    /** Outermost, so the try count is set before jqwik's own hooks start generating. */
    @Override
    public int aroundPropertyProximity() {
        return -100;
    }

    /** The on-demand try count, or null when none (or an unusable one) is set. */
    public static Integer configured() {
        String v = System.getProperty(PROPERTY);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            int n = Integer.parseInt(v.trim());
            return n > 0 ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
