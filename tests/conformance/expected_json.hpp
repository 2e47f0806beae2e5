// Reading expected.json: small accessors that turn a missing or mistyped key into a clear
// CaseFailure naming it, instead of a Poco exception.
#pragma once

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <string>
#include <vector>

namespace tapdiffgen::conformance {

std::string textOf(const Poco::JSON::Object::Ptr& object, const std::string& key);
int64_t integerOf(const Poco::JSON::Object::Ptr& object, const std::string& key);
Poco::JSON::Array::Ptr arrayOf(const Poco::JSON::Object::Ptr& object, const std::string& key);
/// The array's elements as strings (numbers in their text form).
std::vector<std::string> stringsOf(const Poco::JSON::Array::Ptr& array);
/// Every element of an array of objects.
std::vector<Poco::JSON::Object::Ptr> objectsOf(const Poco::JSON::Array::Ptr& array);

/// True when every key of `expected` has an equal value in `actual` (numbers compared as
/// numbers), so a dialect may add keywords such as maxLength.
bool containsSchema(const Poco::JSON::Object::Ptr& actual, const Poco::JSON::Object::Ptr& expected,
                    std::string& difference);

}  // namespace tapdiffgen::conformance
