// JSON read without losing what a consumer of the tap's output could tell apart: a number keeps
// the text it was written with (1.50 is not 1.5, 18446744073709551615 keeps every digit), where
// Poco's parser would turn it into a double or a 64-bit integer.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tapdiffgen::testing {

class ExactJson {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    /// Parses one JSON text (RFC 8259; white space around it allowed). Throws
    /// std::invalid_argument with the offset of the first error, so a raw line break or a
    /// NaN in a line fails loudly.
    static ExactJson parse(std::string_view text);

    Type type() const { return type_; }
    bool isNull() const { return type_ == Type::Null; }
    /// Number: the literal as written. String: the decoded UTF-8. Bool: "true" or "false".
    const std::string& scalar() const { return scalar_; }
    /// Object members in the order written.
    const std::vector<std::pair<std::string, ExactJson>>& members() const { return members_; }
    const std::vector<ExactJson>& items() const { return items_; }
    std::vector<std::string> memberNames() const;
    /// The member `name`; throws std::out_of_range when there is none.
    const ExactJson& at(const std::string& name) const;
    /// Whether the object has a member `name`.
    bool has(const std::string& name) const;
    /// This object with each member of `changes` in place of its own of that name (added when
    /// it has none): how an override file replaces top-level keys.
    ExactJson withMembersOf(const ExactJson& changes) const;

    /// One text per value: members sorted by name, no white space, strings escaped one way
    /// only, numbers exactly as written.
    std::string canonical() const;

private:
    Type type_ = Type::Null;
    std::string scalar_;
    std::vector<std::pair<std::string, ExactJson>> members_;
    std::vector<ExactJson> items_;

    friend class ExactJsonParser;
    void appendCanonical(std::string& out) const;
};

/// ExactJson::parse(text).canonical(): compares two JSON texts value by value.
std::string canonicalJson(std::string_view text);

}  // namespace tapdiffgen::testing
