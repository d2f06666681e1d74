package io.github.kcrawler.common.model;

/** Why a fetch is requested. Serialised by name; never rename a constant. */
public enum FetchKind { NEW, REVISIT }
