package io.github.kcrawler.fetcher.dns;

/**
 * Why a name did not resolve, as a {@link NameLookup} reports it, so callers can count reasons without knowing
 * the DNS library's exception types.
 */
public final class LookupFailure extends Exception {
    private final HostResolver.Failure kind;

    public LookupFailure(HostResolver.Failure kind, String message, Throwable cause) {
        super(message, cause, false, false);
        this.kind = kind;
    }

    public HostResolver.Failure kind() {
        return kind;
    }
}
