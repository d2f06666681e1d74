package io.github.kcrawler.websim.archfixture;

import io.github.kcrawler.scheduler.SchedulerConfig;

/** Breaks LayeringTest's websim rule on purpose: websim code that uses a service. */
public final class WebsimUsesService {
    public static Class<?> service() {
        return SchedulerConfig.class;
    }
}
