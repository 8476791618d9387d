package com.example.events;

import java.util.List;
import java.util.concurrent.*;
import static java.util.Objects.requireNonNull;

/** Fixture for the Java queries. */
public class EventBus<T> extends Base implements Closeable {
    public static final int LIMIT = 8;
    private final List<Listener> listeners;

    public EventBus() {
        this.listeners = new ArrayList<>();
    }

    public void publish(T event) {
        requireNonNull(event);
        for (Listener l : listeners) {
            l.onEvent(event);
        }
        Helpers.log("published");
    }

    interface Listener {
        int PRIORITY = 1;
        void onEvent(Object event);
    }

    enum Mode { SYNC, ASYNC }

    record Pair(String a, int b) {}

    @interface Marker {
        String value() default "";
    }
}
