package dev.loommcp.internal.json;

import java.util.Map;

/**
 * A JSON object that is another map's members followed by one more: {@link JsonRpcCodec} writes {@link #members()}
 * and then {@link #lastKey()} with {@link #lastValue()}, without iterating the object's own entry set (whose entries a
 * read-only view must wrap one by one). The modern era's params with their {@code _meta} envelope are the one kind.
 */
public interface MapWithOneMore {

    /**
     * Returns the members that come first, in their order; none of them has the key {@link #lastKey()}.
     *
     * @return the map (not copied)
     */
    Map<String, Object> members();

    /**
     * Returns the key of the last member.
     *
     * @return the key
     */
    String lastKey();

    /**
     * Returns the value of the last member.
     *
     * @return the value
     */
    Object lastValue();
}
