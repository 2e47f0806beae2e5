#include "state/tap_state.hpp"

#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "singer/json_text.hpp"

namespace tapdiffgen::core {
namespace {

bool configured(const std::vector<std::string>& streams, const std::string& name) {
    return std::find(streams.begin(), streams.end(), name) != streams.end();
}

int64_t parseBookmark(const std::string& stream, const Poco::JSON::Object::Ptr& bookmark,
                      const std::string& source) {
    const std::string where = "state '" + source + "': bookmark of stream '" + stream + "'";
    if (bookmark->has("replication_key")) {
        Poco::Dynamic::Var key = bookmark->get("replication_key");
        if (!key.isString() || key.toString() != TapState::kReplicationKey) {
            throw StateError(where + " has replication_key '" + key.toString() + "', not '" +
                             TapState::kReplicationKey +
                             "': this state was written by another tap");
        }
    }
    if (!bookmark->has("replication_key_value")) {
        throw StateError(where + " has no replication_key_value");
    }
    Poco::Dynamic::Var value = bookmark->get("replication_key_value");
    if (!value.isInteger()) {
        throw StateError(where + ": replication_key_value '" + value.toString() +
                         "' is not a diffgen id (an integer): this state was written by "
                         "another tap");
    }
    return value.convert<int64_t>();
}

std::string condensed(const Poco::Dynamic::Var& value) {
    std::ostringstream raw;
    Poco::JSON::Stringifier::condense(value, raw);
    return raw.str();
}

int64_t integerMember(const Poco::JSON::Object::Ptr& object, const std::string& name,
                      const std::string& where) {
    Poco::Dynamic::Var value = object->get(name);
    if (!value.isInteger()) throw StateError(where + ": " + name + " is not an integer");
    return value.convert<int64_t>();
}

SnapshotPosition parseSnapshot(const Poco::Dynamic::Var& value, const std::string& where) {
    if (value.type() != typeid(Poco::JSON::Object::Ptr)) {
        throw StateError(where + " is not an object");
    }
    auto snapshot = value.extract<Poco::JSON::Object::Ptr>();
    if (snapshot.isNull() || !snapshot->has("since_diffgen_id")) {
        throw StateError(where + " has no since_diffgen_id");
    }
    SnapshotPosition position;
    position.sinceId = integerMember(snapshot, "since_diffgen_id", where);
    if (snapshot->has("rows")) position.rows = integerMember(snapshot, "rows", where);
    if (snapshot->has("after_key")) {
        auto key = snapshot->getArray("after_key");
        if (key.isNull() || key->size() == 0) {
            throw StateError(where + ": after_key is not a list of key values");
        }
        for (size_t i = 0; i < key->size(); ++i) {
            Poco::Dynamic::Var part = key->get(static_cast<unsigned>(i));
            if (!part.isString()) throw StateError(where + ": after_key holds a non-string");
            position.afterKey.push_back(part.toString());
        }
    }
    return position;
}

}  // namespace

TapState TapState::parse(const std::string& jsonText, const std::string& source,
                         const std::vector<std::string>& configuredStreams) {
    Poco::Dynamic::Var root;
    try {
        Poco::JSON::Parser parser;
        root = parser.parse(jsonText);
    } catch (const Poco::Exception& failure) {
        throw StateError("state '" + source + "' is not valid JSON: " + failure.message());
    }
    try {
        return fromDocument(root, source, configuredStreams);
    } catch (const Poco::Exception& failure) {
        // A document of the wrong shape (an id beyond 64 bits, say) is still a bad state.
        throw StateError("state '" + source + "' is malformed: " + failure.displayText());
    }
}

TapState TapState::fromDocument(const Poco::Dynamic::Var& root, const std::string& source,
                                const std::vector<std::string>& configuredStreams) {
    TapState state;
    if (root.isEmpty()) return state;
    if (root.type() != typeid(Poco::JSON::Object::Ptr)) {
        throw StateError("state '" + source + "' must be a JSON object");
    }
    auto object = root.extract<Poco::JSON::Object::Ptr>();
    if (object.isNull()) throw StateError("state '" + source + "' must be a JSON object");
    // Meltano and most tools pass the value itself; accept a whole STATE message too.
    if (object->has("type") && object->has("value")) {
        object = object->getObject("value");
        if (object.isNull()) throw StateError("state '" + source + "': value is not an object");
    }
    if (!object->has("bookmarks")) return state;
    auto bookmarks = object->getObject("bookmarks");
    if (bookmarks.isNull()) throw StateError("state '" + source + "': bookmarks is not an object");
    for (const auto& [stream, value] : *bookmarks) {
        Poco::JSON::Object::Ptr bookmark;
        if (value.type() == typeid(Poco::JSON::Object::Ptr)) {
            bookmark = value.extract<Poco::JSON::Object::Ptr>();
        }
        if (configured(configuredStreams, stream)) {
            if (bookmark.isNull()) {
                throw StateError("state '" + source + "': bookmark of stream '" + stream +
                                 "' is not an object");
            }
            state.bookmarks_[stream] = parseBookmark(stream, bookmark, source);
            state.readOtherMembers(stream, bookmark, source);
        } else {
            state.foreign_[stream] = condensed(value);
        }
    }
    return state;
}

TapState TapState::load(const std::string& path,
                        const std::vector<std::string>& configuredStreams) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw StateError("cannot read state file '" + path + "': " + std::strerror(errno));
    }
    std::stringstream content;
    content << file.rdbuf();
    return parse(content.str(), path, configuredStreams);
}

std::optional<int64_t> TapState::bookmark(const std::string& stream) const {
    auto found = bookmarks_.find(stream);
    if (found == bookmarks_.end()) return std::nullopt;
    return found->second;
}

void TapState::setBookmark(const std::string& stream, int64_t diffgenId) {
    bookmarks_[stream] = diffgenId;
}

std::optional<SnapshotPosition> TapState::snapshot(const std::string& stream) const {
    auto found = snapshots_.find(stream);
    if (found == snapshots_.end()) return std::nullopt;
    return found->second;
}

void TapState::setSnapshot(const std::string& stream, SnapshotPosition position) {
    snapshots_[stream] = std::move(position);
}

void TapState::readOtherMembers(const std::string& stream, const Poco::JSON::Object::Ptr& bookmark,
                                const std::string& source) {
    std::string others;
    for (const auto& [name, value] : *bookmark) {
        if (name == "replication_key" || name == "replication_key_value") continue;
        if (name == "snapshot") {
            snapshots_[stream] =
                parseSnapshot(value, "state '" + source + "': snapshot of stream '" + stream + "'");
            continue;
        }
        if (!others.empty()) others.push_back(',');
        appendJsonString(others, name);
        others.push_back(':');
        others += condensed(value);
    }
    if (!others.empty()) otherMembers_[stream] = std::move(others);
}

std::string TapState::bookmarkJson(const std::string& stream, int64_t id) const {
    std::string bookmark = R"({"replication_key":")";
    bookmark += kReplicationKey;
    bookmark += R"(","replication_key_value":)";
    appendInt64(bookmark, id);
    if (auto snapshot = snapshots_.find(stream); snapshot != snapshots_.end()) {
        const SnapshotPosition& position = snapshot->second;
        bookmark += R"(,"snapshot":{"since_diffgen_id":)";
        appendInt64(bookmark, position.sinceId);
        if (!position.afterKey.empty()) {
            bookmark += R"(,"after_key":[)";
            for (size_t i = 0; i < position.afterKey.size(); ++i) {
                if (i > 0) bookmark.push_back(',');
                appendJsonString(bookmark, position.afterKey[i]);
            }
            bookmark.push_back(']');
        }
        bookmark += R"(,"rows":)";
        appendInt64(bookmark, position.rows);
        bookmark.push_back('}');
    }
    if (auto others = otherMembers_.find(stream); others != otherMembers_.end()) {
        bookmark.push_back(',');
        bookmark += others->second;
    }
    bookmark.push_back('}');
    return bookmark;
}

std::string TapState::toJson() const {
    std::map<std::string, std::string> all = foreign_;
    for (const auto& [stream, id] : bookmarks_) all[stream] = bookmarkJson(stream, id);
    std::string json = R"({"bookmarks":{)";
    bool first = true;
    for (const auto& [stream, bookmark] : all) {
        if (!first) json.push_back(',');
        first = false;
        appendJsonString(json, stream);
        json.push_back(':');
        json += bookmark;
    }
    json += "}}";
    return json;
}

}  // namespace tapdiffgen::core
